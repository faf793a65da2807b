import Foundation
import KiwiDietGuard
import KiwiGuardEvaluation
import KiwiModels
import Testing

/// The guard against sets written apart from it (`Fixtures/blind-allergen-set/README.md`): sentences and ingredient
/// lines as recipes write them, labelled from EU 1169/2011 Annex II, the FSA's and FARE's guidance by a helper that had
/// not read the lexicon. Unlike `allergen-cases.tsv`, written from the lexicon, they measure it (docs/operations.md,
/// "The allergen guard's recall and precision").
@Suite("Allergen guard on the blind sets")
struct BlindAllergenSetTests {
    static let batches = ["batch-1", "batch-2"]
    /// The first batch of each language Kiwi answers in besides English, written before the guard read any of them
    /// (each batch's `.md` says how) and tuned against since, as English's first was.
    static let languageBatches = ["de-batch-1", "fr-batch-1", "es-batch-1", "it-batch-1", "nl-batch-1"]
    /// Each language's second batch, written blind after the first tuning, scored untuned, and tuned against since.
    static let secondLanguageBatches = ["de-batch-2", "fr-batch-2", "es-batch-2", "it-batch-2", "nl-batch-2"]
    /// Each language's third batch, written blind after the second tuning, scored untuned, and tuned against since.
    static let thirdLanguageBatches = ["de-batch-3", "fr-batch-3", "es-batch-3", "it-batch-3", "nl-batch-3"]
    /// Labels of the second batches the lexicons miss, each for a reason given here; any other miss fails. "Tintenfischringe,
    /// frittiert" is labelled gluten for a batter its text does not name, where batch 1 labels frying squid rings molluscs
    /// alone: reading gluten in the rings would flag plain ones, and "frittiert" is no flour.
    static let knownMisses: Set<String> = [#""Tintenfischringe, frittiert": gluten not found"#]
    /// A language batch's language: the first two letters of its name.
    static func language(of batch: String) throws -> AnswerLanguage {
        try #require(AnswerLanguage(rawValue: String(batch.prefix(2))))
    }
    static let allergens = Set(KitchenProfile.Allergen.allCases.map(\.rawValue))
    let dietGuard = DietGuard()

    static func lines(of batch: String) throws -> [BlindAllergenSet.Line] {
        try set(batch).lines
    }

    static func set(_ batch: String) throws -> BlindAllergenSet {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/blind-allergen-set/\(batch)", withExtension: "jsonl"))
        return try BlindAllergenSet(jsonLines: String(contentsOf: url, encoding: .utf8))
    }

    @Test("each batch is as large as the issue asks, labelled with allergen groups only, its false friends with none")
    func batchesAreWellFormed() throws {
        let first = try Self.lines(of: "batch-1")
        #expect(first.filter { !$0.groups.isEmpty }.count >= 300)
        #expect(first.filter(\.falseFriend).count >= 50)
        #expect(try Self.lines(of: "batch-2").count >= 100)
        for batch in Self.batches {
            for line in try Self.lines(of: batch) {
                #expect(line.groups.isSubset(of: Self.allergens), "\(batch): \(line.text)")
                #expect(!(line.falseFriend && !line.groups.isEmpty), "\(batch): \(line.text)")
            }
        }
    }

    @Test(
        "each language's batch is as large as issue 60 asks, labelled with allergen groups only, its false friends with none",
        arguments: languageBatches + secondLanguageBatches + thirdLanguageBatches
    )
    func languageBatchIsWellFormed(_ batch: String) throws {
        let lines = try Self.lines(of: batch)
        #expect(lines.filter { !$0.groups.isEmpty }.count >= 150)
        #expect(lines.filter(\.falseFriend).count >= 30)
        #expect(Set(lines.flatMap(\.groups)) == Self.allergens, "every group has lines")
        for line in lines {
            #expect(line.groups.isSubset(of: Self.allergens), "\(batch): \(line.text)")
            #expect(!(line.falseFriend && !line.groups.isEmpty), "\(batch): \(line.text)")
        }
    }

    @Test("every group a line of a blind batch names is found in it: recall is 100 %", arguments: batches)
    func recallIsWhole(_ batch: String) throws {
        let score = try Self.set(batch).score(by: dietGuard)
        print("blind allergen set \(batch): \(score)")
        #expect(score.missed.isEmpty, "\(batch): \(score); missed:\n\(score.missed.joined(separator: "\n"))")
    }

    @Test(
        "every group a line of a language's blind batch names is found by that language's guard, but the known misses",
        arguments: languageBatches + secondLanguageBatches + thirdLanguageBatches
    )
    func languageRecallIsWhole(_ batch: String) throws {
        let score = try Self.set(batch).score(by: .reading(try Self.language(of: batch)))
        print("blind allergen set \(batch): \(score)")
        let missed = score.missed.filter { !Self.knownMisses.contains($0) }
        #expect(missed.isEmpty, "\(batch): \(score); missed:\n\(missed.joined(separator: "\n"))")
    }

    @Test(
        "of the groups a language's guard finds in its first and third blind batches, at least 95 % are labelled",
        arguments: languageBatches + thirdLanguageBatches
    )
    func languagePrecisionHolds(_ batch: String) throws {
        let score = try Self.set(batch).score(by: .reading(try Self.language(of: batch)))
        #expect(score.precision >= 0.95, "\(batch): \(score); unlabelled:\n\(score.unlabelled.joined(separator: "\n"))")
    }

    /// The precision the issue asks for is the first batch's; the second was written to measure the first's tuning,
    /// and its precision is reported (docs/operations.md, "The allergen guard's recall and precision").
    @Test("of the groups the guard finds in the first blind batch, at least 95 % are labelled", arguments: ["batch-1"])
    func precisionHolds(_ batch: String) throws {
        let score = try Self.set(batch).score(by: dietGuard)
        #expect(score.precision >= 0.95, "\(batch): \(score); unlabelled:\n\(score.unlabelled.joined(separator: "\n"))")
    }
}
