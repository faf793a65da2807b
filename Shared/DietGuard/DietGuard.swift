import Foundation
import KiwiModels

/// Checks the model's recipes against a user's allergies and diets on the server, instead of trusting the prompt
/// (docs/architecture.md, "The allergen and diet guard"). Two independent lines of defence: a recipe violates the
/// profile when its name, summary, an ingredient or a step names something of a group the profile excludes (the
/// lexicon), or when the model declares an allergen of such a group (its `allergens`); a substitution or the "make it
/// faster" tip that names one is a violation of that advice only.
public struct DietGuard: Sendable {
    /// Why a group is excluded: the user's allergy, or one of their diets.
    public enum Rule: Sendable, Hashable {
        case allergy(KitchenProfile.Allergen)
        case diet(KitchenProfile.Diet)

        var isDiet: Bool {
            if case .diet = self { true } else { false }
        }
    }

    /// Something a recipe names, or declares, that the profile excludes.
    public struct Violation: Sendable, Hashable {
        /// What the recipe says: the ingredient's name, the lexicon term found in a step or the recipe's name, or for
        /// a declared allergen the group's name.
        public var ingredient: String
        /// The group's name as a user reads it ("tree nuts").
        public var group: String
        /// The group's id ("tree_nuts").
        public var groupID: String
        public var rule: Rule
        /// Where it was found, for the model: "ingredient 2", "step 3", "its name", ``declaration``.
        public var place: String

        /// The place of an allergen the model declared in the recipe's `allergens`.
        public static let declaration = "the allergens it declares"

        var isDeclared: Bool { place == Self.declaration }
    }

    /// What the guard found in one recipe.
    public struct Finding: Sendable, Hashable {
        /// The recipe's position among the answer's recipes; nil for a dish scan's recipe.
        public var index: Int?
        public var recipeName: String
        /// In the recipe itself: it must not be shown.
        public var violations: [Violation]
        /// Only in advice: the substitutions (by ingredient position) and the tip that must not be shown.
        public var substitutions: [Int: Violation]
        /// In the make-it-faster tip, if there.
        public var tip: Violation?

        var isOnlyAdvice: Bool { violations.isEmpty }
    }

    let lexicon: IngredientLexicon
    /// What ingredients' plain English names (``GuardedRecipe/canonicalNames``) are read with, in every language.
    private let english = IngredientLexicon.standard
    /// How reasons are worded in the lexicon's language; nil in English.
    private let labels: AllergenLabels?

    public init(lexicon: IngredientLexicon = .standard) {
        self.lexicon = lexicon
        labels = AnswerLanguage(rawValue: lexicon.language).flatMap(AllergenLabels.of)
    }

    /// The guard of text written in `language`, with Kiwi's lexicon of its words: what an answer in that language, or
    /// a recipe saved from one, is read with. Each is built once, when first asked for.
    public static func reading(_ language: AnswerLanguage) -> DietGuard {
        switch language {
        case .en: english
        case .de: german
        case .fr: french
        case .es: spanish
        case .it: italian
        case .nl: dutch
        }
    }

    /// Builds every language's guard now, its lexicon read and its words' forms worked out: a service does it before
    /// its first request, so that no scan waits on a lexicon and its deadline.
    public static func loadEveryLanguage() {
        for language in AnswerLanguage.allCases { _ = reading(language) }
    }

    private static let english = DietGuard()
    private static let german = DietGuard(lexicon: .builtIn(.de))
    private static let french = DietGuard(lexicon: .builtIn(.fr))
    private static let spanish = DietGuard(lexicon: .builtIn(.es))
    private static let italian = DietGuard(lexicon: .builtIn(.it))
    private static let dutch = DietGuard(lexicon: .builtIn(.nl))

    /// The groups `profile` excludes and why, allergies first; a group excluded twice keeps its first reason.
    public func rules(for profile: KitchenProfile) -> [(group: IngredientLexicon.Group, rule: Rule)] {
        var seen: Set<String> = []
        let rules =
            profile.allergies.map { ($0.rawValue, Rule.allergy($0)) }
            + profile.diets.flatMap { diet in (lexicon.diets[diet] ?? []).map { ($0, Rule.diet(diet)) } }
        return rules.compactMap { id, rule in
            guard seen.insert(id).inserted, let group = lexicon.groups[id] else { return nil }
            return (group, rule)
        }
    }

    /// The ids of the groups `text` names (an ingredient's name, for example), in alphabetical order.
    public func groups(in text: String) -> [String] {
        let reading = lexicon.reading(text)
        return lexicon.groups.values.sorted { $0.id < $1.id }.filter { $0.term(in: reading) != nil }.map(\.id)
    }

    /// The allergen groups `recipe` contains, in alphabetical order of their ids: those the model declares and those
    /// the lexicon finds in the recipe itself (its name, summary, ingredients' names and quantities, and steps: the text whose match
    /// would withhold it; advice is not part of the dish), and those its ingredients' plain English names name. A
    /// recipe the guard keeps for a profile is never labelled with one of the profile's allergies.
    public func allergens(of recipe: some GuardedRecipe) -> [KitchenProfile.Allergen] {
        var found = Set(recipe.allergens ?? [])
        func read(_ text: String, with lexicon: IngredientLexicon) {
            let reading = lexicon.reading(text)
            for allergen in KitchenProfile.Allergen.allCases where !found.contains(allergen) {
                if lexicon.groups[allergen.rawValue]?.term(in: reading) != nil { found.insert(allergen) }
            }
        }
        for text in [recipe.name, recipe.summary] + recipe.ingredientNames + recipe.ingredientQuantities + recipe.steps {
            read(text, with: lexicon)
        }
        for name in recipe.canonicalNames { if let name { read(name, with: english) } }
        return found.sorted { $0.rawValue < $1.rawValue }
    }

    /// `answer` with each recipe's `allergens`, the dish's recipe's included, as clients receive them
    /// (``allergens(of:)``): an app can label every recipe, whatever the profile.
    public func labelled(_ answer: ScanResponse) -> ScanResponse {
        labelled(answer) { allergens(of: $0) }
    }

    /// `answer` labelled as ``labelled(_:)`` does, its recipes' allergens from `recipeAllergens`: a caller that has
    /// already labelled some of them (a streamed scan, as they were shown) need not read them again.
    public func labelled(_ answer: ScanResponse, recipeAllergens: (Recipe) -> [KitchenProfile.Allergen]) -> ScanResponse {
        var labelled = answer
        for index in labelled.recipes.indices { labelled.recipes[index].allergens = recipeAllergens(labelled.recipes[index]) }
        if let recipe = labelled.dish?.recipe { labelled.dish?.recipe?.allergens = allergens(of: recipe) }
        return labelled
    }

    /// Every recipe of `answer` that breaks `profile`, with what breaks it; empty when all are safe. A recipe breaks it
    /// when its text names a group the profile excludes, or when the model declares an allergen of such a group: each
    /// source alone is enough, so a recipe the lexicon misses is still caught by the model's own declaration, and the
    /// other way round. A declared group the text also names is reported once, where the text names it. The answer's
    /// recipes that `safe` says were already found safe for `profile` (checked one at a time as they streamed; a dish
    /// scan's recipe does not stream) are not read again.
    public func findings(in answer: ScanResponse, for profile: KitchenProfile, except safe: (Recipe) -> Bool = { _ in false }) -> [Finding] {
        let rules = rules(for: profile)
        guard !rules.isEmpty else { return [] }
        let dish = answer.dish?.recipe.flatMap { finding(in: $0, index: nil, rules: rules) }
        let recipes = answer.recipes.enumerated().compactMap { index, recipe in
            safe(recipe) ? nil : finding(in: recipe, index: index, rules: rules)
        }
        return recipes + (dish.map { [$0] } ?? [])
    }

    /// What breaks `profile` in one `recipe`, as ``findings(in:for:)`` finds it in an answer; nil when it is safe.
    public func finding(in recipe: some GuardedRecipe, for profile: KitchenProfile) -> Finding? {
        let rules = rules(for: profile)
        return rules.isEmpty ? nil : finding(in: recipe, index: nil, rules: rules)
    }

    private func finding(
        in recipe: some GuardedRecipe,
        index: Int?,
        rules: [(group: IngredientLexicon.Group, rule: Rule)]
    ) -> Finding? {
        func violation(in text: String, ingredient: String? = nil, place: String) -> Violation? {
            let reading = lexicon.reading(text)
            for (group, rule) in rules {
                if let term = group.term(in: reading) {
                    return Violation(ingredient: ingredient ?? term, group: group.name, groupID: group.id, rule: rule, place: place)
                }
            }
            return nil
        }
        // An ingredient's plain English name, read with the English lexicon's group of the same id.
        func violation(inEnglishName name: String, ingredient: String, place: String) -> Violation? {
            let reading = english.reading(name)
            for (group, rule) in rules where english.groups[group.id]?.term(in: reading) != nil {
                return Violation(ingredient: ingredient, group: group.name, groupID: group.id, rule: rule, place: place)
            }
            return nil
        }
        var found: [Violation] = []
        if let broken = violation(in: recipe.name, place: "its name") { found.append(broken) }
        if let broken = violation(in: recipe.summary, place: "its summary") { found.append(broken) }
        let englishNames = recipe.canonicalNames
        for (position, name) in recipe.ingredientNames.enumerated() {
            let place = "ingredient \(position + 1)"
            let englishName = position < englishNames.count ? englishNames[position] : nil
            if let broken = violation(in: name, ingredient: name, place: place)
                ?? englishName.flatMap({ violation(inEnglishName: $0, ingredient: name, place: place) })
            {
                found.append(broken)
            }
        }
        for (position, quantity) in recipe.ingredientQuantities.enumerated() {
            if let broken = violation(in: quantity, place: "the quantity of ingredient \(position + 1)") { found.append(broken) }
        }
        for (position, step) in recipe.steps.enumerated() {
            if let broken = violation(in: step, place: "step \(position + 1)") { found.append(broken) }
        }
        let named = Set(found.map(\.group))
        let declared = Set((recipe.allergens ?? []).map(\.rawValue))
        for (group, rule) in rules where declared.contains(group.id) && !named.contains(group.name) {
            found.append(Violation(ingredient: group.name, group: group.name, groupID: group.id, rule: rule, place: Violation.declaration))
        }
        var substitutions: [Int: Violation] = [:]
        for (position, substitution) in recipe.substitutions.enumerated() {
            if let substitution, let broken = violation(in: substitution, place: "the substitution for ingredient \(position + 1)") {
                substitutions[position] = broken
            }
        }
        let tip = recipe.makeItFasterTip.flatMap { violation(in: $0, place: "the make-it-faster tip") }
        guard !found.isEmpty || !substitutions.isEmpty || tip != nil else { return nil }
        return Finding(index: index, recipeName: recipe.name, violations: found, substitutions: substitutions, tip: tip)
    }

    /// `recipe` checked against `profile` as it is now, with the guard that checks a scan's answer: the conflicts of the
    /// recipe itself (each group it breaks once, where it is first named), and the recipe with the advice that breaks
    /// the profile removed, as from the recipes a scan keeps. For a recipe kept or shown after its scan: the profile
    /// may have changed since it was answered. With a household's `table`, each conflict says whose rule it breaks.
    public func checked(_ recipe: Recipe, against profile: KitchenProfile, table: [TableSeat] = []) -> (recipe: Recipe, conflicts: [RecipeConflict]) {
        guard let finding = finding(in: recipe, for: profile) else { return (recipe, []) }
        var conflicts: [RecipeConflict] = []
        var groups: Set<String> = []
        for violation in finding.violations where groups.insert(violation.group).inserted {
            let (rule, name): (RecipeConflict.Rule, String) =
                switch violation.rule {
                case .allergy(let allergen): (.allergy, allergen.rawValue)
                case .diet(let diet): (.diet, diet.rawValue)
                }
            conflicts.append(
                RecipeConflict(
                    rule: rule,
                    name: name,
                    source: violation.isDeclared ? .allergens : .text,
                    found: violation.ingredient,
                    place: violation.place,
                    reason: reason([violation]),
                    for: Self.members(of: table, breaking: [violation])
                )
            )
        }
        var shown = recipe
        for position in finding.substitutions.keys { shown.ingredients[position].substitution = nil }
        if finding.tip != nil { shown.makeItFasterTip = nil }
        return (shown, conflicts)
    }

    /// `answer` as the user may see it: each recipe with a finding withheld (and said why, and with a household's
    /// `table` for whom), advice that breaks the profile removed from the recipes kept.
    public func enforce(_ findings: [Finding], on answer: ScanResponse, table: [TableSeat] = []) -> ScanResponse {
        var guarded = answer
        var withheld: Set<Int> = []
        for finding in findings {
            if !finding.isOnlyAdvice {
                if let index = finding.index { withheld.insert(index) } else { guarded.dish?.recipe = nil }
                guarded.withheldRecipes.append(
                    WithheldRecipe(
                        name: finding.recipeName,
                        reason: reason(finding.violations),
                        for: Self.members(of: table, breaking: finding.violations)
                    )
                )
            } else if let index = finding.index {
                for position in finding.substitutions.keys { guarded.recipes[index].ingredients[position].substitution = nil }
                if finding.tip != nil { guarded.recipes[index].makeItFasterTip = nil }
            } else if finding.tip != nil {
                guarded.dish?.recipe?.makeItFasterTip = nil
            }
        }
        guarded.recipes = guarded.recipes.enumerated().filter { !withheld.contains($0.offset) }.map(\.element)
        return guarded
    }

    /// The members of `table` whose allergies or diets `violations` break, in the table's order; nil without a table,
    /// or when the rules broken are nobody's at it.
    static func members(of table: [TableSeat], breaking violations: [Violation]) -> [UUID]? {
        let broken = Set(
            violations.flatMap { violation in
                switch violation.rule {
                case .allergy(let allergen): table.members(allergicTo: allergen)
                case .diet(let diet): table.members(keeping: diet)
                }
            }
        )
        let members = table.map(\.memberId).filter(broken.contains)
        return members.isEmpty ? nil : members
    }

    /// What the model is told in a repair: which ingredient broke which rule, where, or which declared allergen did.
    public func repairProblem(_ findings: [Finding]) -> String {
        let described = findings.flatMap { finding in
            let recipe = "\(finding.index.map { "recipe \($0 + 1)" } ?? "the dish's recipe") (\"\(finding.recipeName)\")"
            let violations = finding.violations + finding.substitutions.sorted { $0.key < $1.key }.map(\.value) + [finding.tip].compactMap { $0 }
            return violations.map { violation in
                violation.isDeclared
                    ? "\(recipe) declares \(violation.group) among its allergens, \(Self.declaredClause(violation))"
                    : "\(recipe) uses \"\(violation.ingredient)\" in \(violation.place), which \(Self.clause(violation))"
            }
        }
        return described.joined(separator: "; ")
            + ". Replace those ingredients, or the recipes, with ones the household can eat, and suggest no substitution or tip that uses them"
    }

    /// Why a recipe was withheld, in words a user understands, in the lexicon's language: "It uses basil pesto, which
    /// contains tree nuts."; in another language the allergen's declaration, with the ingredient that brings it
    /// (``AllergenLabels``). One sentence per group, at most two, an ingredient preferred to the name or a step that
    /// names the same group; a group only the model declared reads "It contains fish." (or "It contains fish, which is
    /// not vegetarian.").
    public func reason(_ violations: [Violation]) -> String {
        let ingredientsFirst = violations.filter { $0.place.hasPrefix("ingredient") } + violations.filter { !$0.place.hasPrefix("ingredient") }
        var groups: Set<String> = []
        var sentences: [String] = []
        for violation in ingredientsFirst where groups.insert(violation.group).inserted {
            if let labels {
                sentences.append(labels.sentence(violation))
                continue
            }
            let ingredient = violation.ingredient.lowercased()
            if violation.isDeclared, case .diet = violation.rule {
                sentences.append("It contains \(violation.group), which \(Self.userClause(violation)).")
            } else if IngredientWords(ingredient) == IngredientWords(violation.group) && !violation.rule.isDiet {
                sentences.append("It contains \(violation.group).")
            } else {
                sentences.append("It uses \(ingredient), which \(Self.userClause(violation)).")
            }
        }
        return sentences.prefix(2).joined(separator: " ")
    }

    private static func userClause(_ violation: Violation) -> String {
        switch violation.rule {
        case .allergy: "contains \(violation.group)"
        case .diet(let diet): "is not \(label(diet))"
        }
    }

    private static func clause(_ violation: Violation) -> String {
        "contains \(violation.group), " + declaredClause(violation)
    }

    private static func declaredClause(_ violation: Violation) -> String {
        switch violation.rule {
        case .allergy: "and the household is allergic to \(violation.group)"
        case .diet(let diet): "which a \(label(diet)) diet excludes"
        }
    }

    /// A diet as a user reads it.
    static func label(_ diet: KitchenProfile.Diet) -> String {
        switch diet {
        case .glutenFree: "gluten-free"
        case .dairyFree: "dairy-free"
        case .lowCarb: "low-carb"
        default: diet.rawValue
        }
    }
}

/// A recipe the guard checks: a fridge answer's recipe, or a dish's.
public protocol GuardedRecipe {
    var name: String { get }
    /// The one or two sentences shown under the name.
    var summary: String { get }
    /// The names of its ingredients, in order.
    var ingredientNames: [String] { get }
    /// Its ingredients' quantities as the model wrote them in words, in order; empty when they are numbers and units.
    /// The model may name food there ("2 tbsp of peanut butter"), so the guard reads them as it reads the names.
    var ingredientQuantities: [String] { get }
    var steps: [String] { get }
    /// Each ingredient's substitution, by the ingredient's position; nil where there is none.
    var substitutions: [String?] { get }
    var makeItFasterTip: String? { get }
    /// The allergen groups the model declares it contains; nil for a recipe answered before they were declared.
    var allergens: [KitchenProfile.Allergen]? { get }
    /// Each ingredient's plain English name (``EnglishNamed``), by the ingredient's position; nil where its answer gave
    /// none. The guard reads them with the English lexicon, whatever the recipe's language.
    var canonicalNames: [String?] { get }
}

extension Recipe: GuardedRecipe {
    public var ingredientNames: [String] { ingredients.map(\.name) }
    public var canonicalNames: [String?] { ingredients.map(\.canonicalName) }
    public var substitutions: [String?] { ingredients.map(\.substitution) }
    /// A fridge recipe's quantities are an amount and a unit of a fixed list, never words.
    public var ingredientQuantities: [String] { [] }
}

extension DishRecipe: GuardedRecipe {
    public var ingredientNames: [String] { ingredients.map(\.name) }
    public var canonicalNames: [String?] { ingredients.map(\.canonicalName) }
    public var ingredientQuantities: [String] { ingredients.map(\.quantity) }
    /// A dish's recipe suggests no substitutions.
    public var substitutions: [String?] { [] }
}
