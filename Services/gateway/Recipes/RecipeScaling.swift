import Hummingbird
import KiwiFood
import KiwiModels
import KiwiServiceSupport

/// `?servings=N&units=metric|us` of a saved recipe in any of its forms and of its share page: the recipe scaled and
/// converted by ``RecipeScaler`` on each request, never stored.
struct RecipeScaling: Sendable, Hashable {
    /// How many servings a recipe may be scaled to.
    static let servingsRange = 1...24

    var servings: Int?
    var units: UnitSystem?

    /// The request's `servings` and `units`; 400 `bad_request` for a value other than a whole number from 1 to 24
    /// (digits only) or `metric` or `us`.
    init(_ request: Request) throws {
        let query = request.uri.queryParameters
        servings = try query.wholeNumber("servings", in: Self.servingsRange)
        if let asked = query["units"] {
            guard let units = UnitSystem(rawValue: String(asked)) else { throw APIError.badRequest("units must be metric or us.") }
            self.units = units
        }
    }

    /// `saved` as asked: as it is without `servings` and `units`; 409 `recipe_not_scalable` when they are asked of a
    /// recipe without servings. Without `units`, converted to `profileUnits` (the reader's profile's, for their own
    /// recipe): where it can be when nothing else is asked (a recipe without quantities is shown as it is), and with
    /// `servings` as scaled.
    func apply(to saved: SavedRecipe, profileUnits: UnitSystem? = nil) throws -> SavedRecipe {
        if servings == nil, units == nil {
            guard let profileUnits, let converted = RecipeScaler.scale(saved.recipe, to: nil, units: profileUnits) else { return saved }
            var answer = saved
            answer.recipe = converted
            return answer
        }
        guard let scaled = RecipeScaler.scale(saved.recipe, to: servings, units: units ?? profileUnits) else {
            throw APIError(
                .conflict,
                .recipeNotScalable,
                "This recipe was saved before Kiwi wrote quantities, so it cannot be scaled."
            )
        }
        var answer = saved
        answer.recipe = scaled
        return answer
    }
}
