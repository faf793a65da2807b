import KiwiDietGuard

/// A recipe ingredient's name as the matcher reads it (docs/architecture.md, "Quantities, scaling and nutrition"): the
/// words that say what the food is, in the table's American English, and apart from them the states it is in. "250 g
/// leftover cooked spaghetti" is `spaghetti`, cooked; "Greek yoghurt" is `greek yogurt`; "Hellmann's mayonnaise" is
/// `mayonnaise`.
struct IngredientName: Sendable, Hashable {
    /// The food's words, singular, joined by spaces: what the curated synonyms and the word overlap read.
    let key: String
    /// The states the name asks for (``FoodState``).
    let states: Set<FoodState>
    /// How it was cooked, when the name says (``FoodState/methods(in:)``).
    let methods: Set<String>

    init(_ name: String) {
        let named = Self.phrases.replacing(in: Self.foodsNamedByAState.replacing(in: IngredientKey.words(of: name)))
        // Leading numbers are an amount written into the name ("4 poached eggs"); others say which food ("90% lean").
        let words = Array(named.drop { $0.allSatisfy(\.isNumber) })
        let said = FoodState.named(in: words)
        states = said.states
        methods = FoodState.methods(in: words)
        key = words.indices.filter { !said.positions.contains($0) && !Self.ignored.contains(words[$0]) }
            .map { Self.words[words[$0]] ?? words[$0] }
            .joined(separator: " ")
    }

    /// Foods whose name holds a state word that is part of what they are: baked beans are a food, not baked beans.
    static let foodsNamedByAState = WordPhrases<String>([
        ("baked bean", "bakedbean"), ("fried rice", "friedrice"), ("refried bean", "refriedbean"),
    ])

    /// British and brand names, and names the table words otherwise, as the table's words: phrases first.
    static let phrases = WordPhrases<String>([
        ("double cream", "heavy cream"), ("single cream", "light cream"), ("whipping cream", "heavy cream"),
        ("king prawn", "shrimp"), ("tiger prawn", "shrimp"), ("minced beef", "ground beef"), ("beef mince", "ground beef"),
        ("minced pork", "ground pork"), ("pork mince", "ground pork"), ("minced lamb", "ground lamb"), ("lamb mince", "ground lamb"),
        ("minced turkey", "ground turkey"), ("turkey mince", "ground turkey"), ("caster sugar", "sugar"),
        ("granulated sugar", "sugar"), ("icing sugar", "powdered sugar"), ("confectioner sugar", "powdered sugar"),
        ("soured cream", "sour cream"), ("natural yogurt", "plain yogurt"), ("natural yoghurt", "plain yogurt"),
        ("plain flour", "all purpose flour"), ("strong white bread flour", "bread flour"), ("strong bread flour", "bread flour"),
        ("strong flour", "bread flour"), ("streaky bacon", "bacon"), ("back bacon", "bacon"), ("parmigiano reggiano", "parmesan"),
        ("rapeseed oil", "canola oil"), ("bicarbonate of soda", "baking soda"), ("porridge oat", "rolled oat"),
        ("spring onion", "green onion"), ("hard boiled egg", "egg boiled"), ("soft boiled egg", "egg boiled"),
        ("2 milk", "reduced fat milk"), ("semi skimmed milk", "reduced fat milk"), ("1 milk", "low fat milk"),
        ("skimmed milk", "skim milk"), ("bulgur wheat", "bulgur"), ("cracked wheat", "bulgur"),
    ])

    /// Single words: British spellings and names, and brands, as the table's words.
    static let words: [String: String] = [
        "yoghurt": "yogurt", "chilli": "chili", "courgette": "zucchini", "aubergine": "eggplant", "rocket": "arugula",
        "prawn": "shrimp", "beetroot": "beet", "wholemeal": "whole wheat", "mangetout": "snow pea", "swede": "rutabaga",
        "nutella": "chocolate hazelnut spread", "mayo": "mayonnaise", "capsicum": "bell pepper", "portobello": "portabella",
    ]

    /// Words that say nothing about which food it is: how it is cut or bought, and brands.
    static let ignored: Set<String> = [
        "fresh", "chopped", "diced", "sliced", "minced", "grated", "shredded", "crushed", "peeled", "large", "small", "medium",
        "big", "baby", "ripe", "organic", "drained", "rinsed", "shelled", "trimmed", "halved", "quartered", "packed", "softened",
        "melted", "cubed", "thinly", "finely", "roughly", "a", "an", "some", "of", "extra", "virgin", "hellmann", "heinz",
        "philadelphia", "kikkoman", "quaker", "kraft", "lurpak", "colman", "president", "kerrygold", "barilla", "bird",
        "uncle", "ben", "tesco", "sainsbury", "waitrose", "s",
    ]
}
