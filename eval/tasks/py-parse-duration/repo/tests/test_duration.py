import unittest

from duration import parse_duration


class Duration(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(parse_duration("42"), 42)
