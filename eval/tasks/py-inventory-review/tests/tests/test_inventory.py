import unittest

from inventory import Inventory


class InventoryTest(unittest.TestCase):
    def test_remove(self):
        inv = Inventory()
        inv.add("apple", 5)
        inv.remove("apple", 2)
        self.assertEqual(inv.stock, {"apple": 3})

    def test_remove_all(self):
        inv = Inventory()
        inv.add("apple", 2)
        inv.remove("apple", 2)
        self.assertEqual(inv.stock, {})

    def test_remove_too_many(self):
        inv = Inventory()
        inv.add("apple", 1)
        with self.assertRaises(ValueError):
            inv.remove("apple", 2)
        self.assertEqual(inv.stock, {"apple": 1})
