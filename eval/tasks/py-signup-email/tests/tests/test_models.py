import unittest

from models import User
from validators import is_valid_email


class Signup(unittest.TestCase):
    def test_valid(self):
        self.assertEqual(User.create("Bob", "Bob@Example.com").email, "bob@example.com")

    def test_invalid(self):
        for bad in ["bob", "a@b", "a b@c.d", "@c.d", "a@.d"]:
            self.assertFalse(is_valid_email(bad), bad)
            with self.assertRaises(ValueError):
                User.create("Bob", bad)
