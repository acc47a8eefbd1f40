/** Word lists the synthetic retail data set is made from. Invented names; any likeness is chance. */

/** A product group: its department, the nouns its products are named after, and a price range. */
export interface GroupDef {
  readonly dept: number
  readonly deptdesc: string
  readonly group: number
  readonly groupdesc: string
  readonly nouns: readonly string[]
  readonly sizes: readonly string[]
  readonly minPrice: number
  readonly maxPrice: number
}

const g = (
  dept: number,
  deptdesc: string,
  group: number,
  groupdesc: string,
  nouns: string[],
  sizes: string[],
  minPrice: number,
  maxPrice: number,
): GroupDef => ({ dept, deptdesc, group, groupdesc, nouns, sizes, minPrice, maxPrice })

/** Product groups; group numbers are department × 100 + a running number. */
export const GROUPS: readonly GroupDef[] = [
  g(1, 'Produce', 101, 'Fruit', ['Apples', 'Bananas', 'Grapes', 'Oranges', 'Strawberries', 'Pears'], ['1 lb', '2 lb', '3 lb bag', 'each'], 0.5, 7),
  g(1, 'Produce', 102, 'Vegetables', ['Carrots', 'Broccoli', 'Potatoes', 'Onions', 'Peppers', 'Tomatoes'], ['1 lb', '2 lb', '5 lb bag', 'each'], 0.6, 6),
  g(1, 'Produce', 103, 'Salads', ['Spring Mix', 'Romaine Hearts', 'Spinach', 'Kale', 'Coleslaw'], ['5 oz', '10 oz', '16 oz'], 2, 6),
  g(2, 'Dairy', 201, 'Milk', ['Whole Milk', '2% Milk', 'Skim Milk', 'Oat Milk', 'Almond Milk'], ['half gal', '1 gal', '1 qt'], 1.5, 6),
  g(2, 'Dairy', 202, 'Cheese', ['Cheddar', 'Mozzarella', 'Swiss', 'Parmesan', 'Pepper Jack'], ['8 oz', '16 oz', 'sliced 12 ct'], 2.5, 9),
  g(2, 'Dairy', 203, 'Yogurt', ['Greek Yogurt', 'Vanilla Yogurt', 'Strawberry Yogurt', 'Kefir'], ['5.3 oz', '32 oz', '4 pk'], 0.9, 6),
  g(3, 'Bakery', 301, 'Bread', ['Sourdough', 'Whole Wheat Bread', 'Rye Bread', 'Bagels', 'Baguette'], ['1 loaf', '6 ct', '20 oz'], 2, 6),
  g(3, 'Bakery', 302, 'Sweets', ['Muffins', 'Croissants', 'Cookies', 'Brownies', 'Cinnamon Rolls'], ['4 ct', '6 ct', '12 ct'], 3, 9),
  g(4, 'Meat & Seafood', 401, 'Beef', ['Ground Beef', 'Ribeye Steak', 'Sirloin', 'Beef Roast'], ['1 lb', '2 lb', 'family pack'], 5, 25),
  g(4, 'Meat & Seafood', 402, 'Poultry', ['Chicken Breast', 'Chicken Thighs', 'Whole Chicken', 'Turkey Breast'], ['1 lb', '2 lb', 'family pack'], 3.5, 15),
  g(4, 'Meat & Seafood', 403, 'Seafood', ['Salmon Fillet', 'Shrimp', 'Cod Fillet', 'Tuna Steak'], ['8 oz', '1 lb', '2 lb'], 6, 22),
  g(5, 'Frozen', 501, 'Frozen Meals', ['Lasagna', 'Burritos', 'Pizza', 'Stir Fry', 'Mac & Cheese'], ['10 oz', '24 oz', 'family size'], 2.5, 11),
  g(5, 'Frozen', 502, 'Ice Cream', ['Vanilla Ice Cream', 'Chocolate Ice Cream', 'Sorbet', 'Ice Cream Bars'], ['1 pt', '1.5 qt', '6 ct'], 3, 8),
  g(6, 'Pantry', 601, 'Pasta & Rice', ['Spaghetti', 'Penne', 'Jasmine Rice', 'Brown Rice', 'Egg Noodles'], ['1 lb', '2 lb', '5 lb'], 1, 7),
  g(6, 'Pantry', 602, 'Canned Goods', ['Black Beans', 'Diced Tomatoes', 'Chicken Soup', 'Sweet Corn', 'Tuna'], ['15 oz', '4 pk', '28 oz'], 0.8, 5),
  g(6, 'Pantry', 603, 'Cereal', ['Corn Flakes', 'Granola', 'Oatmeal', 'Honey Oats', 'Bran Flakes'], ['12 oz', '18 oz', 'family size'], 2.5, 7),
  g(6, 'Pantry', 604, 'Snacks', ['Potato Chips', 'Tortilla Chips', 'Pretzels', 'Popcorn', 'Trail Mix', 'Crackers'], ['8 oz', '12 oz', 'party size'], 2, 6.5),
  g(7, 'Beverages', 701, 'Soft Drinks', ['Cola', 'Lemon Lime Soda', 'Ginger Ale', 'Root Beer'], ['2 L', '12 pk', '6 pk'], 1.5, 9),
  g(7, 'Beverages', 702, 'Juice', ['Orange Juice', 'Apple Juice', 'Cranberry Juice', 'Lemonade'], ['52 oz', '1 gal', '6 pk'], 2.5, 7),
  g(7, 'Beverages', 703, 'Coffee & Tea', ['Ground Coffee', 'Whole Bean Coffee', 'Green Tea', 'Black Tea', 'Coffee Pods'], ['12 oz', '20 ct', '32 oz'], 3.5, 16),
  g(7, 'Beverages', 704, 'Water', ['Spring Water', 'Sparkling Water', 'Flavored Water'], ['24 pk', '1 gal', '12 pk'], 1, 7),
  g(8, 'Household', 801, 'Cleaning', ['Dish Soap', 'Laundry Detergent', 'All Purpose Cleaner', 'Sponges'], ['16 oz', '64 oz', '3 ct'], 2, 15),
  g(8, 'Household', 802, 'Paper Goods', ['Paper Towels', 'Toilet Paper', 'Napkins', 'Tissues'], ['6 roll', '12 roll', '200 ct'], 2.5, 20),
  g(9, 'Health & Beauty', 901, 'Personal Care', ['Shampoo', 'Conditioner', 'Toothpaste', 'Body Wash', 'Deodorant'], ['4 oz', '12 oz', '2 pk'], 2.5, 12),
  g(9, 'Health & Beauty', 902, 'Vitamins', ['Multivitamin', 'Vitamin C', 'Vitamin D', 'Fish Oil'], ['60 ct', '120 ct', '200 ct'], 6, 25),
  g(10, 'Pet', 1001, 'Dog', ['Dry Dog Food', 'Dog Treats', 'Wet Dog Food'], ['5 lb', '12 oz', '30 lb'], 3, 45),
  g(10, 'Pet', 1002, 'Cat', ['Dry Cat Food', 'Cat Litter', 'Wet Cat Food'], ['3 lb', '20 lb', '12 pk'], 3, 30),
  g(11, 'Baby', 1101, 'Baby Care', ['Diapers', 'Baby Wipes', 'Baby Food', 'Infant Formula'], ['24 ct', '4 oz', '80 ct'], 1.2, 35),
]

/** Brands; the house brand comes first and is picked more often. */
export const BRANDS: readonly string[] = [
  'Tabula Select',
  'Hillside',
  'Northfield',
  'Golden Acre',
  'Blue Harbor',
  'Maple Lane',
  'Sunward',
  'Cedar Creek',
  'Prairie Gold',
  'Red Barn',
  'Silverleaf',
  'Brightway',
  'Oak & Ivy',
  'Riverbend',
  'Summit',
  'Willow Park',
  'Evergreen',
  'Copper Kettle',
  'Harvest Moon',
  'Lighthouse',
]

/** Optional words in front of a product noun. */
export const ADJECTIVES: readonly string[] = ['Organic', 'Classic', 'Family', 'Premium', 'Lite', 'Natural', 'Original', 'Value', 'Fresh', 'Select']

/** Store locations: city, two-letter state, census region. */
export const CITIES: readonly (readonly [city: string, state: string, region: string])[] = [
  ['Boston', 'MA', 'Northeast'],
  ['Worcester', 'MA', 'Northeast'],
  ['Hartford', 'CT', 'Northeast'],
  ['Providence', 'RI', 'Northeast'],
  ['New York', 'NY', 'Northeast'],
  ['Buffalo', 'NY', 'Northeast'],
  ['Albany', 'NY', 'Northeast'],
  ['Newark', 'NJ', 'Northeast'],
  ['Philadelphia', 'PA', 'Northeast'],
  ['Pittsburgh', 'PA', 'Northeast'],
  ['Burlington', 'VT', 'Northeast'],
  ['Portland', 'ME', 'Northeast'],
  ['Atlanta', 'GA', 'South'],
  ['Miami', 'FL', 'South'],
  ['Orlando', 'FL', 'South'],
  ['Tampa', 'FL', 'South'],
  ['Charlotte', 'NC', 'South'],
  ['Raleigh', 'NC', 'South'],
  ['Nashville', 'TN', 'South'],
  ['Memphis', 'TN', 'South'],
  ['Dallas', 'TX', 'South'],
  ['Houston', 'TX', 'South'],
  ['Austin', 'TX', 'South'],
  ['San Antonio', 'TX', 'South'],
  ['Richmond', 'VA', 'South'],
  ['Baltimore', 'MD', 'South'],
  ['Louisville', 'KY', 'South'],
  ['New Orleans', 'LA', 'South'],
  ['Chicago', 'IL', 'Midwest'],
  ['Detroit', 'MI', 'Midwest'],
  ['Columbus', 'OH', 'Midwest'],
  ['Cleveland', 'OH', 'Midwest'],
  ['Indianapolis', 'IN', 'Midwest'],
  ['Milwaukee', 'WI', 'Midwest'],
  ['Minneapolis', 'MN', 'Midwest'],
  ['St. Louis', 'MO', 'Midwest'],
  ['Kansas City', 'MO', 'Midwest'],
  ['Omaha', 'NE', 'Midwest'],
  ['Des Moines', 'IA', 'Midwest'],
  ['Los Angeles', 'CA', 'West'],
  ['San Diego', 'CA', 'West'],
  ['San Francisco', 'CA', 'West'],
  ['Sacramento', 'CA', 'West'],
  ['Seattle', 'WA', 'West'],
  ['Spokane', 'WA', 'West'],
  ['Portland', 'OR', 'West'],
  ['Denver', 'CO', 'West'],
  ['Phoenix', 'AZ', 'West'],
  ['Tucson', 'AZ', 'West'],
  ['Las Vegas', 'NV', 'West'],
  ['Salt Lake City', 'UT', 'West'],
  ['Boise', 'ID', 'West'],
  ['Albuquerque', 'NM', 'West'],
]

/** Payment types with their relative weights. */
export const PAYMENTS: readonly string[] = ['credit', 'debit', 'cash', 'gift']
export const PAYMENT_WEIGHTS: readonly number[] = [45, 30, 20, 5]
