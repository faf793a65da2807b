import Foundation
import KiwiDietGuard
import KiwiModels

/// A set of lines written apart from the lexicon, each labelled with the allergen groups it names
/// (Tests/KiwiDietGuardTests/Fixtures/blind-allergen-set/README.md): what the guard's recall and precision are measured
/// on, by the tests and by `kiwi-lexicon-score` while a lexicon is tuned.
public struct BlindAllergenSet: Sendable {
    /// One line of a set.
    public struct Line: Sendable, Decodable {
        public var text: String
        public var kind: String
        /// Every allergen group the text names: each must be found.
        public var groups: Set<String>
        /// Looks like a group it is not: nothing beyond `groups` may be found.
        public var falseFriend: Bool
    }

    /// What a guard made of a set: the labels it missed and the groups it found that no label names.
    public struct Score: Sendable, CustomStringConvertible {
        public var labels = 0
        public var missed: [String] = []
        public var found = 0
        public var unlabelled: [String] = []

        public var recall: Double { Double(labels - missed.count) / Double(labels) }
        public var precision: Double { Double(found - unlabelled.count) / Double(found) }
        public var description: String {
            String(
                format: "recall %.1f %% (%d of %d), precision %.1f %% (%d of %d)",
                recall * 100,
                labels - missed.count,
                labels,
                precision * 100,
                found - unlabelled.count,
                found
            )
        }
    }

    public let lines: [Line]

    /// Reads a set's JSON lines.
    public init(jsonLines: String) throws {
        lines = try jsonLines.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
    }

    static let allergens = Set(KitchenProfile.Allergen.allCases.map(\.rawValue))

    /// Each line read by `dietGuard` as the text of a recipe: the allergen groups it finds against the line's labels.
    public func score(by dietGuard: DietGuard) -> Score {
        var score = Score()
        for line in lines {
            let found = Set(dietGuard.groups(in: line.text)).intersection(Self.allergens)
            score.labels += line.groups.count
            score.missed += line.groups.subtracting(found).sorted().map { "\"\(line.text)\": \($0) not found" }
            score.found += found.count
            score.unlabelled += found.subtracting(line.groups).sorted().map { "\"\(line.text)\": \($0) found" }
        }
        return score
    }
}
