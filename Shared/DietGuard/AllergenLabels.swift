import Foundation
import KiwiModels

/// What a person reads of the guard in a language other than English (`allergen-labels.json`): each allergen's
/// declaration as EU 1169/2011 words it ("Enthält Milch und Milcherzeugnisse (einschließlich Laktose)", from
/// menuella-food-safety 2.1.0, MIT), each group's name, and how a recipe outside a diet is called ("Nicht vegan").
struct AllergenLabels: Sendable, Decodable {
    /// By allergen id.
    let declarations: [String: String]
    /// By group id, the diets' groups (meat, honey…) too.
    let groups: [String: String]
    /// By diet id.
    let notDiet: [String: String]

    /// The labels of `language`; nil for English, whose sentences the guard writes itself.
    static func of(_ language: AnswerLanguage) -> AllergenLabels? {
        builtIn[language]
    }

    private static let builtIn: [AnswerLanguage: AllergenLabels] = {
        struct File: Decodable { var languages: [String: AllergenLabels] }
        do {
            let file = try JSONDecoder().decode(File.self, from: Data(PackageResources.allergen_labels_json))
            return try Dictionary(
                uniqueKeysWithValues: file.languages.map { code, labels in
                    guard let language = AnswerLanguage(rawValue: code) else { throw LexiconError("it names an unknown language \(code)") }
                    try labels.checkComplete()
                    return (language, labels)
                }
            )
        } catch {
            fatalError("allergen-labels.json is broken: \(error)")
        }
    }()

    /// Throws unless every allergen has a declaration, every group of the English lexicon a name, and every diet a
    /// wording.
    private func checkComplete() throws {
        let missing =
            KitchenProfile.Allergen.allCases.map(\.rawValue).filter { declarations[$0] == nil }
            + IngredientLexicon.standard.groups.keys.filter { groups[$0] == nil }
            + KitchenProfile.Diet.allCases.map(\.rawValue).filter { notDiet[$0] == nil }
        guard missing.isEmpty else { throw LexiconError("it lacks \(missing.sorted().joined(separator: ", "))") }
    }

    /// One sentence of why a recipe breaks the profile: the declaration, with the ingredient that brings it when that
    /// is not the group itself ("Enthält Schalenfrüchte und Schalenfruchterzeugnisse (Basilikumpesto)."); for a diet,
    /// the diet's wording and the ingredient or, declared, the group ("Nicht vegan: Honig.").
    func sentence(_ violation: DietGuard.Violation) -> String {
        let named = violation.isDeclared ? nil : violation.ingredient
        switch violation.rule {
        case .allergy(let allergen):
            let declaration = declarations[allergen.rawValue] ?? violation.group
            guard let named, named.lowercased() != groups[violation.groupID]?.lowercased() else { return "\(declaration)." }
            return "\(declaration) (\(named))."
        case .diet(let diet):
            return "\(notDiet[diet.rawValue] ?? diet.rawValue): \(named ?? groups[violation.groupID] ?? violation.group)."
        }
    }
}
