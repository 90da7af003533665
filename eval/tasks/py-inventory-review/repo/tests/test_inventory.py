import unittest

from inventory import Inventory


class InventoryTest(unittest.TestCase):
    def test_add(self):
        inv = Inventory()
        inv.add("apple", 5)
        self.assertEqual(inv.stock, {"apple": 5})
