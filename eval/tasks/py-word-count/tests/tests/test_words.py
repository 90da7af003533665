import unittest

from words import word_counts


class WordCounts(unittest.TestCase):
    def test_case_and_punctuation(self):
        self.assertEqual(word_counts("The cat and the hat."), {"the": 2, "cat": 1, "and": 1, "hat": 1})

    def test_empty(self):
        self.assertEqual(word_counts(""), {})
