import unittest

import cli
import convert


class Temperature(unittest.TestCase):
    def test_c_to_f(self):
        self.assertEqual(cli.main(["100"]), "212.0")

    def test_f_to_c(self):
        self.assertEqual(convert.f_to_c(212), 100.0)
        self.assertEqual(convert.f_to_c(0), -17.8)

    def test_cli_to_c(self):
        self.assertEqual(cli.main(["--to", "c", "32"]), "0.0")

    def test_cli_to_f(self):
        self.assertEqual(cli.main(["--to", "f", "0"]), "32.0")
