import KiwiModels

/// How long fresh food typically keeps in a fridge once bought, for a pantry item without a best-before date: the
/// lower end of the USDA FoodKeeper's refrigerator ranges, so that an estimate errs towards "use soon". The table is
/// in docs/architecture.md, "The pantry and the shopping list". Food of the other sections keeps, and gets no date.
public enum ShelfLife {
    /// Days by section, for the sections whose food spoils.
    static let daysBySection: [StoreSection: Int] = [.vegetable: 5, .fruit: 5, .protein: 2, .dairy: 7]
    /// Fresh food that keeps much longer than its section, by ``IngredientKey``.
    static let daysByKey: [String: Int] = ["egg": 21, "butter": 30, "potato": 14, "onion": 14, "garlic": 30, "apple": 21, "carrot": 14]

    /// When food of `key` in `section`, added on `day`, is best used by; nil for food that keeps.
    public static func estimatedUseBy(key: String, section: StoreSection, addedOn day: CalendarDay) -> CalendarDay? {
        (daysByKey[key] ?? daysBySection[section]).map { day.adding(days: $0) }
    }
}
