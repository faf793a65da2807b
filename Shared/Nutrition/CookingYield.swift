/// How much a food weighs cooked for each gram of it raw, where the nutrition table has the food raw only
/// (docs/architecture.md, "Quantities, scaling and nutrition"): 300 g of grilled ribeye is 300 / 0.822 = 365 g of raw
/// ribeye. A cooking yield is an average over cuts, samples and cooks, so a value reached through one is an estimate.
public struct CookingYield: Sendable, Hashable {
    /// Cooked weight ÷ raw (or, for grains and dried legumes, dry) weight.
    public let factor: Double
    /// Where the figure comes from: the table and its row.
    public let source: String

    /// The yield of a cooked ingredient whose food words are `key`, cooked by `methods` (``FoodState/methods(in:)``),
    /// whose raw food is of `category`: the first row whose words the key has all of, whose method is one of those named
    /// (or that names none) and whose category is the food's; nil when none is.
    static func of(_ key: String, methods: Set<String>, category: String) -> CookingYield? {
        let words = Set(key.split(separator: " ").map(String.init))
        return rows.first { row in
            row.words.isSubset(of: words) && (row.method.map(methods.contains) ?? true) && row.category.map { $0 == category } != false
        }?.yield
    }

    private struct Row {
        let words: Set<String>
        let method: String?
        let category: String?
        let yield: CookingYield
    }

    /// USDA ARS Nutrient Data Laboratory, Table of Cooking Yields for Meat and Poultry, Release 2 (2014): the cooking
    /// yield %, by NDB number and row as printed.
    private static func meat(_ words: String, _ method: String?, _ category: String, _ percent: Double, _ row: String) -> Row {
        Row(
            words: Set(words.split(separator: " ").map(String.init)),
            method: method,
            category: category,
            yield: CookingYield(factor: percent / 100, source: "USDA Table of Cooking Yields for Meat and Poultry (2014): \(row)")
        )
    }

    /// FoodData Central portions that state the cooked weight of a dry weight ("1 oz, dry, yields"): grams ÷ 28.35.
    private static func dry(_ words: String, _ grams: Double, _ portion: String) -> Row {
        Row(
            words: Set(words.split(separator: " ").map(String.init)),
            method: nil,
            category: nil,
            yield: CookingYield(factor: grams / 28.35, source: "FoodData Central portion: \(portion)")
        )
    }

    private static let beef = "Beef Products"
    private static let pork = "Pork Products"
    private static let poultry = "Poultry Products"
    private static let lamb = "Lamb, Veal, and Game Products"

    /// Most specific first: a cut and a method before the cut alone, before the animal.
    private static let rows: [Row] = [
        meat("ribeye", nil, beef, 82.2, "NDB 23227 Beef, rib eye steak, boneless, lip off, separable lean and fat, trimmed to 0\" fat; Grilled"),
        meat("sirloin", nil, beef, 80, "NDB 13930 Beef, top sirloin, steak, separable lean and fat, trimmed to 1/8\" fat; Broiled or Grilled"),
        meat("strip", nil, beef, 82, "NDB 13445 Beef, loin, top loin steak, boneless, lip off, trimmed to 0\" fat; Grilled"),
        meat("ground beef 90", nil, beef, 69, "NDB 23565 Beef, ground, low fat (<12%), crumbles; Pan-fried"),
        meat("ground beef lean", nil, beef, 69, "NDB 23565 Beef, ground, low fat (<12%), crumbles; Pan-fried"),
        meat("ground beef", nil, beef, 67, "NDB 23575 Beef, ground, medium fat (12%-22%), crumbles; Pan-fried"),
        meat("steak", nil, beef, 78, "Beef, retail all cuts, all temps; Broiled or Grilled"),
        meat("beef", "braised", beef, 67, "Beef, retail cuts, all, boneless; Braised"),
        meat("beef", "boiled", beef, 67, "Beef, retail cuts, all, boneless; Braised"),
        meat("beef", nil, beef, 79, "Beef, retail cuts, boneless, all temps; Baked or Roasted, unspecified"),
        meat("pork tenderloin", nil, pork, 77, "NDB 10061 Pork, fresh, loin, tenderloin, separable lean only; Baked or Roasted, unspecified"),
        meat("pork chop", "fried", pork, 77, "NDB 10186 Pork, fresh, loin, top loin (chops), boneless, separable lean and fat; Pan-fried"),
        meat("pork chop", nil, pork, 79, "NDB 10212 Pork, fresh, loin, sirloin (chops), boneless, separable lean and fat; Broiled or Grilled"),
        meat("ground pork", nil, pork, 67, "NDB 10975 Pork, ground, crumbles, medium fat (10%-27%); Pan-browned"),
        meat("bacon", nil, pork, 32, "NDB 10862 Pork, cured, bacon; Pan-fried"),
        meat(
            "pork",
            nil,
            pork,
            77,
            "NDB 10039 Pork, fresh, loin, center loin (roasts), bone-in, separable lean and fat; Baked or Roasted, unspecified"
        ),
        meat("chicken breast", "boiled", poultry, 77, "NDB 5061 Chicken, broiler-fryer, breast, meat and skin; Poached, Simmered or Stewed"),
        meat("chicken breast", nil, poultry, 72, "NDB 5060 Chicken, broiler-fryer, breast, meat and skin; Baked or Roasted, unspecified"),
        meat("chicken thigh", "braised", poultry, 68, "NDB 5677 Chicken, broilers or fryers, thigh, meat and skin; Braised"),
        meat("chicken thigh", nil, poultry, 69, "NDB 5094 Chicken, broiler-fryer, thigh, meat and skin; Baked or Roasted, unspecified"),
        meat("chicken drumstick", nil, poultry, 76, "NDB 5069 Chicken, broiler-fryer, drumstick, meat and skin; Baked or Roasted, unspecified"),
        meat("chicken", nil, poultry, 78, "NDB 5004 Chicken, broiler-fryer, whole, including skin; Baked or Roasted, specified time"),
        meat("turkey breast", nil, poultry, 72, "NDB 5733 Turkey, retail parts, non-enhanced, breast, meat and skin; Roasted"),
        meat("lamb", nil, lamb, 74, "Lamb, retail cuts, roasts, all samples; Baked or Roasted, unspecified"),
        dry("pasta", 80, "FNDDS Pasta, cooked: 1 oz, dry, yields 80 g"),
        dry("spaghetti", 80, "FNDDS Pasta, cooked: 1 oz, dry, yields 80 g"),
        dry("couscous", 86, "SR Legacy Couscous, cooked: oz, dry, yields 86 g"),
        dry("bulgur", 115, "FNDDS Bulgur, no added fat: 1 oz, dry, yields 115 g"),
        dry("oat", 170, "FNDDS Oatmeal, regular or quick, made with water, no added fat: 1 oz, dry, yields 170 g"),
        dry("lentil", 70, "FNDDS Lentils, from dried, no added fat: 1 oz dry, yield after cooking 70 g"),
        dry("chickpea", 70, "FNDDS Chickpeas, from dried, no added fat: 1 oz dry, yield after cooking 70 g"),
        dry("bean", 70, "FNDDS Kidney beans, from dried, no added fat: 1 oz dry, yield after cooking 70 g"),
    ]
}
