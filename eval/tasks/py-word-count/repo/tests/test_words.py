import unittest

from words import word_counts


class WordCounts(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(word_counts(""), {})
