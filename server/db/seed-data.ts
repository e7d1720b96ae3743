/**
 * The demo neighbourhood: members around Portland, Oregon, with what they offer and want.
 * Illustrative only; every listing is marked as demo content in its description's owner (no e-mail, no password).
 */

export interface SeedListing {
  title: string;
  description: string;
  category: string;
  isService?: boolean;
  estimatedValue?: number;
}

export interface SeedWant {
  title: string;
  description?: string;
  category: string;
  isService?: boolean;
  maxValue?: number;
}

export interface SeedMember {
  firstName: string;
  lastName: string;
  neighbourhood: string;
  items: SeedListing[];
  wants: SeedWant[];
}

export const SEED_TOWN = { name: 'Portland, Oregon, United States', latitude: 45.5152, longitude: -122.6784 };

export const SEED_MEMBERS: SeedMember[] = [
  {
    firstName: 'Maya',
    lastName: 'Okafor',
    neighbourhood: 'Sellwood',
    items: [
      {
        title: 'Cordless drill, 18V',
        description: 'DeWalt 18V drill with two batteries and charger. Works great.',
        category: 'tools',
        estimatedValue: 85,
      },
      {
        title: 'Sourdough starter and baking lesson',
        description: 'I will share my 6-year-old starter and show you how to bake a loaf.',
        category: 'lessons',
        isService: true,
        estimatedValue: 30,
      },
    ],
    wants: [
      { title: 'Kayak paddle', description: 'Adult size, any brand.', category: 'sporting', maxValue: 60 },
    ],
  },
  {
    firstName: 'Tom',
    lastName: 'Brennan',
    neighbourhood: 'Hawthorne',
    items: [
      {
        title: 'Mountain bike, 21 speed',
        description: 'Trek hardtail, medium frame, new tyres this spring.',
        category: 'bikes',
        estimatedValue: 220,
      },
      {
        title: 'Bike tune-up',
        description: 'Brakes, gears and a chain clean at my garage workshop.',
        category: 'cycle',
        isService: true,
        estimatedValue: 40,
      },
    ],
    wants: [
      { title: 'Cordless drill', description: 'For hanging shelves.', category: 'tools', maxValue: 100 },
      { title: 'Guitar lessons', category: 'lessons', isService: true },
    ],
  },
  {
    firstName: 'Priya',
    lastName: 'Raman',
    neighbourhood: 'Alberta Arts',
    items: [
      {
        title: 'Acoustic guitar',
        description: 'Yamaha FG800 with soft case and spare strings.',
        category: 'music instr',
        estimatedValue: 150,
      },
      {
        title: 'Beginner guitar lessons',
        description: 'Four one-hour lessons for adults or teens.',
        category: 'lessons',
        isService: true,
        estimatedValue: 120,
      },
    ],
    wants: [
      { title: 'Standing desk', description: 'Manual or electric.', category: 'furniture', maxValue: 200 },
    ],
  },
  {
    firstName: 'Sam',
    lastName: 'Whitfield',
    neighbourhood: 'Irvington',
    items: [
      {
        title: 'Standing desk, electric',
        description: 'Height-adjustable desk, 48 x 24 inches, memory presets.',
        category: 'furniture',
        estimatedValue: 180,
      },
      {
        title: 'Box of sci-fi paperbacks',
        description: 'About 30 books: Le Guin, Asimov, Butler and more.',
        category: 'books',
        estimatedValue: 35,
      },
    ],
    wants: [
      {
        title: 'Acoustic guitar',
        description: 'Something to learn on.',
        category: 'music instr',
        maxValue: 200,
      },
    ],
  },
  {
    firstName: 'Lena',
    lastName: 'Kowalski',
    neighbourhood: 'St. Johns',
    items: [
      {
        title: 'Tomato seedlings (12)',
        description: 'Heirloom varieties, ready to plant out in May.',
        category: 'farm+garden',
        estimatedValue: 24,
      },
      {
        title: 'Garden weeding, two hours',
        description: 'I love weeding. Bring me to your beds.',
        category: 'farm+garden',
        isService: true,
        estimatedValue: 40,
      },
    ],
    wants: [{ title: 'Rain barrel', category: 'farm+garden', maxValue: 80 }],
  },
  {
    firstName: 'Marcus',
    lastName: 'Hill',
    neighbourhood: 'Kenton',
    items: [
      {
        title: 'Rain barrel, 55 gallon',
        description: 'Food-grade barrel with spigot and overflow hose.',
        category: 'farm+garden',
        estimatedValue: 60,
      },
      {
        title: 'Moving help with pickup truck',
        description: 'Half a day of lifting and driving around town.',
        category: 'labor/move',
        isService: true,
        estimatedValue: 100,
      },
    ],
    wants: [{ title: 'Tomato plants', description: 'Any variety.', category: 'farm+garden', maxValue: 30 }],
  },
  {
    firstName: 'Aiko',
    lastName: 'Tanaka',
    neighbourhood: 'Buckman',
    items: [
      {
        title: 'Film camera, Canon AE-1',
        description: 'Fully working with a 50mm f/1.8 lens.',
        category: 'photo+video',
        estimatedValue: 190,
      },
      {
        title: 'Portrait photo session',
        description: 'One hour outdoors, ten edited photos.',
        category: 'creative',
        isService: true,
        estimatedValue: 150,
      },
    ],
    wants: [{ title: 'Vinyl records', description: 'Jazz or soul.', category: 'cds/dvd/vhs', maxValue: 50 }],
  },
  {
    firstName: 'Diego',
    lastName: 'Ramirez',
    neighbourhood: 'Montavilla',
    items: [
      {
        title: 'Jazz vinyl collection',
        description: 'Twenty records: Coltrane, Monk, Ella Fitzgerald.',
        category: 'cds/dvd/vhs',
        estimatedValue: 90,
      },
      {
        title: 'Spanish conversation practice',
        description: 'Weekly hour of conversation over coffee.',
        category: 'lessons',
        isService: true,
        estimatedValue: 25,
      },
    ],
    wants: [{ title: 'Film camera', category: 'photo+video', maxValue: 250 }],
  },
  {
    firstName: 'Grace',
    lastName: 'Liu',
    neighbourhood: 'Richmond',
    items: [
      {
        title: 'Stand mixer',
        description: 'KitchenAid Artisan in red, with dough hook and whisk.',
        category: 'appliances',
        estimatedValue: 160,
      },
      {
        title: 'Tax return help',
        description: 'I can help you prepare a simple personal return.',
        category: 'financial',
        isService: true,
        estimatedValue: 80,
      },
    ],
    wants: [{ title: 'Sewing machine', category: 'household', maxValue: 150 }],
  },
  {
    firstName: 'Noah',
    lastName: 'Bergstrom',
    neighbourhood: 'Woodstock',
    items: [
      {
        title: 'Sewing machine',
        description: 'Singer Heavy Duty, recently serviced.',
        category: 'household',
        estimatedValue: 120,
      },
      {
        title: 'Fence and deck repair',
        description: 'Small carpentry jobs, I bring my own tools.',
        category: 'skilled trade',
        isService: true,
        estimatedValue: 90,
      },
    ],
    wants: [{ title: 'Stand mixer', description: 'For bread dough.', category: 'appliances', maxValue: 180 }],
  },
  {
    firstName: 'Fatima',
    lastName: 'Haddad',
    neighbourhood: 'Lents',
    items: [
      {
        title: 'Kids bike with training wheels',
        description: '16-inch bike for ages 4 to 6.',
        category: 'baby+kid',
        estimatedValue: 40,
      },
      {
        title: 'Board game bundle',
        description: 'Catan, Ticket to Ride and Carcassonne, all complete.',
        category: 'toys+games',
        estimatedValue: 70,
      },
    ],
    wants: [{ title: 'Children’s books', category: 'books', maxValue: 30 }],
  },
  {
    firstName: 'Owen',
    lastName: 'Price',
    neighbourhood: 'Brooklyn',
    items: [
      {
        title: 'Kayak paddle',
        description: 'Werner paddle, 220 cm, lightly used.',
        category: 'sporting',
        estimatedValue: 55,
      },
      {
        title: 'Camping tent, 4 person',
        description: 'REI tent with footprint and rain fly.',
        category: 'rvs+camp',
        estimatedValue: 110,
      },
    ],
    wants: [{ title: 'Sourdough lessons', category: 'lessons', isService: true }],
  },
  {
    firstName: 'Hannah',
    lastName: 'Schultz',
    neighbourhood: 'Laurelhurst',
    items: [
      {
        title: 'Piano lessons',
        description: 'Classical or pop, beginners welcome, at my home.',
        category: 'lessons',
        isService: true,
        estimatedValue: 45,
      },
      {
        title: 'Picture books for kids',
        description: 'A box of 25 picture books in good condition.',
        category: 'books',
        estimatedValue: 30,
      },
    ],
    wants: [{ title: 'House cleaning', category: 'household', isService: true }],
  },
  {
    firstName: 'Ben',
    lastName: 'Adeyemi',
    neighbourhood: 'Mississippi',
    items: [
      {
        title: 'Laptop repair and cleanup',
        description: 'Virus removal, SSD upgrade, fresh OS install.',
        category: 'computer',
        isService: true,
        estimatedValue: 70,
      },
      {
        title: 'Mechanical keyboard',
        description: 'Tenkeyless with brown switches.',
        category: 'computer parts',
        estimatedValue: 60,
      },
    ],
    wants: [{ title: 'Mountain bike', category: 'bikes', maxValue: 250 }],
  },
  {
    firstName: 'Chloe',
    lastName: 'Martin',
    neighbourhood: 'Division',
    items: [
      {
        title: 'Dog walking',
        description: 'Weekday midday walks around the neighbourhood.',
        category: 'pet',
        isService: true,
        estimatedValue: 20,
      },
      {
        title: 'Houseplant cuttings',
        description: 'Pothos, monstera and string of pearls cuttings.',
        category: 'farm+garden',
        estimatedValue: 15,
      },
    ],
    wants: [{ title: 'Bike tune-up', category: 'cycle', isService: true }],
  },
  {
    firstName: 'Ravi',
    lastName: 'Patel',
    neighbourhood: 'Foster-Powell',
    items: [
      {
        title: 'Circular saw',
        description: 'Makita 7-1/4 inch corded saw with two blades.',
        category: 'tools',
        estimatedValue: 75,
      },
      {
        title: 'Indian cooking class',
        description: 'Learn three curries and fresh naan in my kitchen.',
        category: 'lessons',
        isService: true,
        estimatedValue: 60,
      },
    ],
    wants: [{ title: 'Camping tent', category: 'rvs+camp', maxValue: 150 }],
  },
  {
    firstName: 'Ella',
    lastName: 'Novak',
    neighbourhood: 'Eastmoreland',
    items: [
      {
        title: 'Mid-century armchair',
        description: 'Teak frame with new green upholstery.',
        category: 'furniture',
        estimatedValue: 200,
      },
      {
        title: 'Resume and cover letter editing',
        description: 'Careful editing of your application documents.',
        category: 'write/ed/tran',
        isService: true,
        estimatedValue: 50,
      },
    ],
    wants: [{ title: 'Circular saw', category: 'tools', maxValue: 90 }],
  },
  {
    firstName: 'Jonah',
    lastName: 'Reyes',
    neighbourhood: 'Overlook',
    items: [
      {
        title: 'Electric guitar amp',
        description: 'Fender Frontman 25W practice amp.',
        category: 'music instr',
        estimatedValue: 65,
      },
      {
        title: 'Lawn mowing',
        description: 'I mow, edge and bag clippings.',
        category: 'labor/move',
        isService: true,
        estimatedValue: 35,
      },
    ],
    wants: [{ title: 'Mechanical keyboard', category: 'computer parts', maxValue: 80 }],
  },
  {
    firstName: 'Sofia',
    lastName: 'Rossi',
    neighbourhood: 'Kerns',
    items: [
      {
        title: 'Espresso machine',
        description: 'Breville Bambino, descaled and working.',
        category: 'appliances',
        estimatedValue: 140,
      },
      {
        title: 'Italian lessons',
        description: 'Beginner Italian, one hour a week.',
        category: 'lessons',
        isService: true,
        estimatedValue: 30,
      },
    ],
    wants: [{ title: 'Mid-century chair', category: 'furniture', maxValue: 250 }],
  },
  {
    firstName: 'Liam',
    lastName: 'O’Connor',
    neighbourhood: 'Eliot',
    items: [
      {
        title: 'Snowboard, 155 cm',
        description: 'Burton board with bindings, one season of use.',
        category: 'sporting',
        estimatedValue: 160,
      },
      {
        title: 'Handyman hour',
        description: 'Shelves, curtain rods, flat-pack furniture.',
        category: 'skilled trade',
        isService: true,
        estimatedValue: 45,
      },
    ],
    wants: [{ title: 'Espresso machine', category: 'appliances', maxValue: 150 }],
  },
  {
    firstName: 'Zara',
    lastName: 'Ahmed',
    neighbourhood: 'Concordia',
    items: [
      {
        title: 'Baby stroller',
        description: 'UPPAbaby Cruz, clean, with rain cover.',
        category: 'baby+kid',
        estimatedValue: 150,
      },
      {
        title: 'Henna and hair braiding',
        description: 'For events or just for fun.',
        category: 'beauty',
        isService: true,
        estimatedValue: 40,
      },
    ],
    wants: [{ title: 'Kids bike', category: 'baby+kid', maxValue: 50 }],
  },
  {
    firstName: 'Henry',
    lastName: 'Cole',
    neighbourhood: 'Goose Hollow',
    items: [
      {
        title: 'Cast iron pan set',
        description: 'Three Lodge skillets, seasoned.',
        category: 'household',
        estimatedValue: 45,
      },
      {
        title: 'Chess coaching',
        description: 'Club player, happy to teach openings and tactics.',
        category: 'lessons',
        isService: true,
        estimatedValue: 25,
      },
    ],
    wants: [{ title: 'Board games', category: 'toys+games', maxValue: 80 }],
  },
  {
    firstName: 'Isla',
    lastName: 'Fraser',
    neighbourhood: 'Multnomah Village',
    items: [
      {
        title: 'Knitted wool blanket',
        description: 'Hand-knitted throw in oatmeal and blue.',
        category: 'arts+crafts',
        estimatedValue: 80,
      },
      {
        title: 'Pet sitting',
        description: 'Cats and small pets while you are away.',
        category: 'pet',
        isService: true,
        estimatedValue: 30,
      },
    ],
    wants: [{ title: 'Laptop repair', category: 'computer', isService: true }],
  },
  {
    firstName: 'Kwame',
    lastName: 'Mensah',
    neighbourhood: 'Roseway',
    items: [
      {
        title: 'Pressure washer',
        description: 'Ryobi electric pressure washer, 1900 PSI.',
        category: 'tools',
        estimatedValue: 95,
      },
      {
        title: 'Website setup for small business',
        description: 'A simple site with your hours, menu and contact form.',
        category: 'computer',
        isService: true,
        estimatedValue: 200,
      },
    ],
    wants: [{ title: 'Piano lessons', category: 'lessons', isService: true }],
  },
];
