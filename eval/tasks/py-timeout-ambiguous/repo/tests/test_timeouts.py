import unittest

from db import db_settings
from fetch import download_settings


class Timeouts(unittest.TestCase):
    def test_settings_name_a_timeout(self):
        self.assertIn("timeout", download_settings())
        self.assertIn("timeout", db_settings())
