import unittest

from duration import parse_duration


class Duration(unittest.TestCase):
    def test_units(self):
        self.assertEqual(parse_duration("1h30m"), 5400)
        self.assertEqual(parse_duration("2m5s"), 125)
        self.assertEqual(parse_duration("1h"), 3600)

    def test_plain(self):
        self.assertEqual(parse_duration("42"), 42)

    def test_bad(self):
        for bad in ["", "h", "5x", "1h30"]:
            with self.assertRaises(ValueError):
                parse_duration(bad)
