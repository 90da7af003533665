import unittest

from db import db_settings
from fetch import download_settings


class Timeouts(unittest.TestCase):
    def test_download(self):
        self.assertEqual(download_settings()["timeout"], 60)

    def test_db_untouched(self):
        self.assertEqual(db_settings()["timeout"], 5)
