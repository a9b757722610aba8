/**
 * Four short documents, by name, that all share the words of a shipping question: each is one passage, so an
 * agent over them sends the model four passages to cite from (for the tests of answer sources).
 */
export const SHOP_HELP_PASSAGES: Readonly<Record<string, string>> = {
  'Shipping.txt': 'We ship to the United Kingdom, Germany and France. Delivery to the United Kingdom takes three to five working days.',
  'Returns.txt': 'You may return unworn items within 30 days. Shipping costs for returns are refunded when the item was faulty.',
  'Ducks.txt': 'Ducks ship their feathers once a year; researchers in the UK counted the shipping of down by wild ducks.',
  'Novel.txt': 'The ship left the harbour at dawn, bound for the United Kingdom, and nobody on board spoke of delivery.',
};
