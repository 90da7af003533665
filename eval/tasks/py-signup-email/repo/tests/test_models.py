import unittest

from models import User


class Signup(unittest.TestCase):
    def test_create(self):
        self.assertEqual(User.create("Bob", "bob@example.com").email, "bob@example.com")
