import Foundation
import KiwiDietGuard
import KiwiModels
import Testing

/// The guard against a set of phrases built from public allergen guidance (`Fixtures/README.md` says which):
/// ingredient names and sentences from recipe steps and tips, each labelled with the allergen groups it must be found
/// in, and false friends labelled with the groups it must not be found in.
@Suite("Allergen cases from public guidance")
struct AllergenCasesTests {
    /// One line of `allergen-cases.tsv`.
    struct Case {
        var text: String
        /// The groups the phrase names: each must be found.
        var groups: Set<String>
        /// The groups the phrase only resembles: none may be found.
        var notGroups: Set<String>
    }

    let dietGuard = DietGuard()
    let cases: [Case]

    init() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/allergen-cases.tsv", withExtension: nil))
        cases = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(columns.count == 3, "not three columns: \(line)")
            func groups(_ column: String) -> Set<String> { Set(column.split(separator: ",").map(String.init)) }
            return Case(text: columns[2], groups: groups(columns[0]), notGroups: groups(columns[1]))
        }
    }

    static let allergens = Set(KitchenProfile.Allergen.allCases.map(\.rawValue))

    /// The allergen groups the guard finds in `phrase` (diet groups such as meat or alcohol are left out).
    func found(_ phrase: Case) -> Set<String> {
        Set(dietGuard.groups(in: phrase.text)).intersection(Self.allergens)
    }

    @Test("the set holds at least 300 labelled phrases and 50 false friends, labelled with allergen groups only")
    func setIsLargeEnough() {
        #expect(cases.filter { !$0.groups.isEmpty }.count >= 300)
        #expect(cases.filter { !$0.notGroups.isEmpty }.count >= 50)
        let unknown = cases.flatMap { $0.groups.union($0.notGroups).subtracting(Self.allergens).map { "\"\($0)\"" } }
        #expect(unknown.isEmpty, "not allergen groups: \(unknown)")
    }

    @Test("every group a phrase is labelled with is found in it: recall is 100 %")
    func everyLabelledGroupIsFound() {
        let misses = cases.flatMap { phrase in phrase.groups.subtracting(found(phrase)).sorted().map { "\"\(phrase.text)\": \($0) not found" } }
        #expect(misses.isEmpty, "\(misses.count) missed:\n\(misses.joined(separator: "\n"))")
    }

    @Test("no false friend is found in a group it only resembles")
    func falseFriendsAreKept() {
        let alarms = cases.flatMap { phrase in phrase.notGroups.intersection(found(phrase)).sorted().map { "\"\(phrase.text)\": \($0) found" } }
        #expect(alarms.isEmpty, "\(alarms.count) false friends withheld:\n\(alarms.joined(separator: "\n"))")
    }

    @Test("precision over the set stays at least at the 95 % docs/operations.md records")
    func precisionHolds() {
        let found = cases.map(found)
        let labelled = zip(cases, found).map { $0.groups.intersection($1).count }.reduce(0, +)
        let total = found.map(\.count).reduce(0, +)
        print("allergen-cases.tsv: \(labelled) of \(total) groups found were labelled")
        let unlabelled = zip(cases, found).filter { !$1.subtracting($0.groups).isEmpty }.map {
            "\"\($0.text)\": \($1.subtracting($0.groups).sorted())"
        }
        #expect(
            Double(labelled) >= 0.95 * Double(total),
            "\(labelled) of \(total) groups found were labelled; unlabelled:\n\(unlabelled.joined(separator: "\n"))"
        )
    }
}
