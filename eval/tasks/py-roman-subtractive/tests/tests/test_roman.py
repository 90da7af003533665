import unittest

from roman import to_roman


class Roman(unittest.TestCase):
    def test_values(self):
        for n, want in [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (1994, "MCMXCIV"), (3888, "MMMDCCCLXXXVIII")]:
            self.assertEqual(to_roman(n), want, n)
