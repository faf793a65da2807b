/// The normalised name that makes two ingredient names one item in a pantry or a shopping list (docs/architecture.md,
/// "The pantry and the shopping list"): the words as the lexicon reads them (lower-cased, diacritics removed,
/// punctuation a separator), leading amounts and preparation words dropped, each word made singular. So "Tomatoes",
/// "tomato" and "2 fresh tomatoes" are all `tomato`, and "Crème Fraîche" is `creme fraiche`; "coconut milk" stays apart
/// from `milk`. Empty when the name has no letter or digit.
public enum IngredientKey {
    public static func of(_ name: String) -> String {
        var words = IngredientWords(name).words
        while words.count > 1, let first = words.first, first.allSatisfy(\.isNumber) || preparationWords.contains(first) {
            words.removeFirst()
        }
        return words.map(singular).joined(separator: " ")
    }

    /// The name's words, folded and singular, none dropped: for a reader that keeps what ``of(_:)`` drops, such as
    /// the state a name says ("cooked rice" is `cooked rice`, not `rice`).
    public static func words(of name: String) -> [String] {
        IngredientWords(name).words.map(singular)
    }

    /// Words that say how an ingredient is bought or cut, not what it is: dropped from the front of a name.
    static let preparationWords: Set<String> = [
        "fresh", "ripe", "large", "small", "medium", "big", "baby", "whole", "raw", "cooked", "leftover", "organic", "frozen",
        "chopped", "diced", "sliced", "minced", "grated", "shredded", "crushed", "peeled", "boneless", "skinless", "unsalted",
        "salted", "plain", "a", "an", "some", "few",
    ]

    /// Plurals the regular endings get wrong.
    static let irregularSingulars: [String: String] = [
        "leaves": "leaf", "loaves": "loaf", "halves": "half", "cookies": "cookie", "pies": "pie", "brownies": "brownie",
        "veggies": "veggie", "smoothies": "smoothie", "calories": "calorie",
    ]

    /// A word's singular by the regular English endings: `ies` → `y`, `oes`, `ches`, `shes`, `sses`, `xes`, `zes` → no
    /// `es`, else no `s`; words of three letters or fewer and words ending `ss`, `us` or `is` (hummus, couscous,
    /// swiss) as they are.
    static func singular(_ word: String) -> String {
        if let irregular = irregularSingulars[word] { return irregular }
        guard word.count > 3, word.hasSuffix("s"), !["ss", "us", "is"].contains(where: word.hasSuffix) else { return word }
        if word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if ["oes", "ches", "shes", "sses", "xes", "zes"].contains(where: word.hasSuffix) { return String(word.dropLast(2)) }
        return String(word.dropLast())
    }
}
