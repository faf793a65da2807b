import KiwiModels

/// What a measured volume of a food weighs, from a FoodData Central portion weight: the grams of `portion` (a cup,
/// a tablespoon or a teaspoon) of the SR Legacy food `food` (docs/architecture.md, "Quantities, scaling and nutrition").
/// Kept with its source so that the table can be checked against FoodData Central row by row.
public struct FoodDensity: Sendable, Hashable {
    /// The ``IngredientKey``s the row answers for.
    public var keys: [String]
    /// The grams of one `volume`.
    public var grams: Double
    public var volume: QuantityUnit
    /// The food's description in FoodData Central (SR Legacy unless it says otherwise).
    public var food: String
    /// The portion's description in FoodData Central.
    public var portion: String

    /// Grams per millilitre.
    public var density: Double {
        grams / UnitSizes.millilitres[volume]!
    }

    /// The table: about 45 common foods measured by volume, each row citing its FoodData Central food and portion.
    public static let table: [FoodDensity] = [
        .init(["flour", "all purpose flour", "white flour"], 125, .cup, "Wheat flour, white, all-purpose, enriched, bleached", "1 cup"),
        .init(["wheat flour", "wholemeal flour", "wholewheat flour"], 120, .cup, "Wheat flour, whole-grain", "1 cup"),
        .init(["sugar", "granulated sugar", "white sugar", "caster sugar"], 200, .cup, "Sugars, granulated", "1 cup"),
        .init(["brown sugar"], 220, .cup, "Sugars, brown", "1 cup, packed"),
        .init(["powdered sugar", "icing sugar", "confectioner sugar"], 120, .cup, "Sugars, powdered", "1 cup, unsifted"),
        .init(["butter"], 227, .cup, "Butter, salted", "1 cup"),
        .init(["milk"], 244, .cup, "Milk, whole, 3.25% milkfat, with added vitamin D", "1 cup"),
        .init(["water"], 237, .cup, "Beverages, water, tap, drinking", "1 cup, 8 fl oz"),
        .init(
            ["rice", "white rice", "long grain rice", "basmati rice", "jasmine rice", "uncooked rice", "uncooked white rice"],
            185,
            .cup,
            "Rice, white, long-grain, regular, raw, enriched",
            "1 cup"
        ),
        .init(["brown rice"], 185, .cup, "Rice, brown, long-grain, raw", "1 cup"),
        .init(["olive oil", "extra virgin olive oil"], 216, .cup, "Oil, olive, salad or cooking", "1 cup"),
        .init(["oil", "vegetable oil", "canola oil", "rapeseed oil", "sunflower oil", "cooking oil"], 218, .cup, "Oil, canola", "1 cup"),
        .init(["honey"], 339, .cup, "Honey", "1 cup"),
        .init(["maple syrup"], 315, .cup, "Syrups, maple", "1 cup"),
        .init(["oat", "rolled oat", "oatmeal", "old fashioned oat"], 81, .cup, "Cereals, oats, regular and quick, not fortified, dry", "1 cup"),
        .init(["parmesan", "parmesan cheese", "parmigiano reggiano"], 100, .cup, "Cheese, parmesan, grated", "1 cup"),
        .init(["cheddar", "cheddar cheese"], 113, .cup, "Cheese, cheddar", "1 cup, shredded"),
        .init(["mozzarella", "mozzarella cheese"], 112, .cup, "Cheese, mozzarella, whole milk", "1 cup, shredded"),
        .init(["cream cheese"], 232, .cup, "Cheese, cream", "1 cup"),
        .init(["spinach"], 30, .cup, "Spinach, raw", "1 cup"),
        .init(["onion", "yellow onion", "white onion", "red onion"], 160, .cup, "Onions, raw", "1 cup, chopped"),
        .init(["tomato"], 180, .cup, "Tomatoes, red, ripe, raw, year round average", "1 cup, chopped or sliced"),
        .init(["cherry tomato"], 149, .cup, "Tomatoes, red, ripe, raw, year round average", "1 cup, cherry tomatoes"),
        .init(
            ["broth", "stock", "chicken broth", "chicken stock", "vegetable broth", "vegetable stock", "beef broth", "beef stock"],
            240,
            .cup,
            "Soup, stock, chicken, home-prepared",
            "1 cup"
        ),
        .init(["yogurt", "natural yogurt"], 245, .cup, "Yogurt, plain, whole milk", "1 cup (8 fl oz)"),
        .init(
            ["heavy cream", "heavy whipping cream", "whipping cream", "double cream", "cream"],
            238,
            .cup,
            "Cream, fluid, heavy whipping",
            "1 cup, fluid"
        ),
        .init(["sour cream"], 230, .cup, "Cream, sour, cultured", "1 cup"),
        .init(["carrot"], 128, .cup, "Carrots, raw", "1 cup, chopped"),
        .init(
            ["bell pepper", "red bell pepper", "green bell pepper", "red pepper", "green pepper"],
            149,
            .cup,
            "Peppers, sweet, red, raw",
            "1 cup, chopped"
        ),
        .init(["potato"], 150, .cup, "Potatoes, flesh and skin, raw", "1 cup, diced"),
        .init(["garlic"], 136, .cup, "Garlic, raw", "1 cup"),
        .init(["broccoli"], 91, .cup, "Broccoli, raw", "1 cup, chopped"),
        .init(["mushroom", "white mushroom", "button mushroom"], 70, .cup, "Mushrooms, white, raw", "1 cup, pieces or slices"),
        .init(["cucumber"], 104, .cup, "Cucumber, with peel, raw", "1 cup, slices"),
        .init(["cabbage"], 89, .cup, "Cabbage, raw", "1 cup, chopped"),
        .init(["pea", "green pea"], 145, .cup, "Peas, green, raw", "1 cup"),
        .init(["lentil"], 192, .cup, "Lentils, raw", "1 cup"),
        .init(["quinoa"], 170, .cup, "Quinoa, uncooked", "1 cup"),
        .init(["walnut"], 117, .cup, "Nuts, walnuts, english", "1 cup, chopped"),
        .init(["almond"], 143, .cup, "Nuts, almonds", "1 cup, whole"),
        .init(["blueberry"], 148, .cup, "Blueberries, raw", "1 cup"),
        .init(["parsley"], 60, .cup, "Parsley, fresh", "1 cup, chopped"),
        .init(["cilantro", "coriander leaf"], 16, .cup, "Coriander (cilantro) leaves, raw", "1 cup"),
        .init(["cocoa", "cocoa powder"], 86, .cup, "Cocoa, dry powder, unsweetened", "1 cup"),
        .init(["cornstarch", "cornflour", "corn starch"], 128, .cup, "Cornstarch", "1 cup"),
        .init(["lemon juice"], 244, .cup, "Lemon juice, raw", "1 cup"),
        .init(["tomato sauce", "passata"], 245, .cup, "Tomato products, canned, sauce", "1 cup"),
        .init(["peanut butter"], 16, .tbsp, "Peanut butter, smooth style, with salt (Foundation)", "1 tablespoon"),
        .init(["soy sauce"], 16, .tbsp, "Soy sauce made from soy and wheat (shoyu)", "1 tbsp"),
        .init(["vinegar", "cider vinegar", "apple cider vinegar"], 14.9, .tbsp, "Vinegar, cider", "1 tbsp"),
        .init(["salt", "table salt", "sea salt", "kosher salt"], 6, .tsp, "Salt, table", "1 tsp"),
        .init(["black pepper", "pepper", "ground black pepper"], 2.3, .tsp, "Spices, pepper, black", "1 tsp, ground"),
        .init(["cinnamon", "ground cinnamon"], 2.6, .tsp, "Spices, cinnamon, ground", "1 tsp"),
        .init(["cumin", "ground cumin"], 2.1, .tsp, "Spices, cumin seed", "1 tsp, ground"),
        .init(["paprika", "smoked paprika"], 2.3, .tsp, "Spices, paprika", "1 tsp"),
        .init(["oregano", "dried oregano"], 1, .tsp, "Spices, oregano, dried", "1 tsp, leaves"),
        .init(["thyme", "dried thyme"], 1, .tsp, "Spices, thyme, dried", "1 tsp, leaves"),
        .init(["chili powder"], 8.1, .tbsp, "Spices, chili powder", "1 tbsp"),
        .init(["curry powder"], 6.3, .tbsp, "Spices, curry powder", "1 tbsp"),
    ]

    /// Grams per millilitre by key, from ``table``.
    public static let byKey: [String: Double] = Dictionary(
        table.flatMap { row in row.keys.map { ($0, row.density) } },
        uniquingKeysWith: { first, _ in first }
    )

    init(_ keys: [String], _ grams: Double, _ volume: QuantityUnit, _ food: String, _ portion: String) {
        self.keys = keys
        self.grams = grams
        self.volume = volume
        self.food = food
        self.portion = portion
    }
}
