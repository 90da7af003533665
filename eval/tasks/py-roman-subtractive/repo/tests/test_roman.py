import unittest

from roman import to_roman


class Roman(unittest.TestCase):
    def test_additive(self):
        for n, want in [(1, "I"), (3, "III"), (6, "VI"), (2023, "MMXXIII")]:
            self.assertEqual(to_roman(n), want, n)
