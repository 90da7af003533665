import unittest

import cli


class Temperature(unittest.TestCase):
    def test_c_to_f(self):
        self.assertEqual(cli.main(["100"]), "212.0")
