import { fmt as fmtMoney } from './money.js';
import { fmt } from './names.js';

export function card(person) {
  return `${fmt(person.first, person.last)}: ${fmtMoney(person.balance)}`;
}
