/// The units a recipe's quantities are shown in (`units=metric|us`, or the profile's).
public enum UnitSystem: String, Codable, Sendable, Hashable, CaseIterable {
    /// Grams and millilitres (kilograms and litres from 1000); teaspoons and tablespoons stay.
    case metric
    /// Ounces and pounds; teaspoons, tablespoons and cups chosen by size.
    case us
}
