// Discount codes, by name.
export const DISCOUNTS = {};
