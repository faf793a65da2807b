import Foundation
import KiwiDietGuard
import KiwiGuardEvaluation

// kiwi-lexicon-score LEXICON SET…: a lexicon file read as the guard reads a built-in one (another language's with the
// English lexicon's names and diets), scored on blind allergen sets, with every label it misses and every group it
// finds that no label names. For tuning a lexicon without a build: the tests score the built-in lexicons
// (docs/operations.md, "The allergen guard's recall and precision").

let arguments = CommandLine.arguments.dropFirst()
guard let lexiconPath = arguments.first, arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: kiwi-lexicon-score LEXICON.json SET.jsonl [SET.jsonl …]\n".utf8))
    exit(64)
}
let lexicon = try IngredientLexicon(json: Data(contentsOf: URL(fileURLWithPath: lexiconPath)), english: .standard)
let dietGuard = DietGuard(lexicon: lexicon)
for path in arguments.dropFirst() {
    let score = try BlindAllergenSet(jsonLines: String(contentsOfFile: path, encoding: .utf8)).score(by: dietGuard)
    print("\(path): \(score)")
    for line in score.missed { print("  missed: \(line)") }
    for line in score.unlabelled { print("  unlabelled: \(line)") }
}
