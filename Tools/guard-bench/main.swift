import Foundation
import KiwiBenchmarking
import KiwiDevelopment
import KiwiDietGuard
import KiwiGuardEvaluation
import KiwiModels
import KiwiStrictJSON

// kiwi-guard-bench: the CPU the scan worker's allergen work costs per scan, alone, on one thread. Every recipe of a
// fridge answer is labelled with its allergens, as every scan's are (`DietGuard.allergens(of:)`), and the answer is
// checked against a profile that excludes all fourteen groups, as a scan with allergies is (`DietGuard.findings`). The
// answers are the OpenAI stub's, each of its fridges in turn: what scenario A's worker labels. Prints the CPU per scan
// of each over ROUNDS rounds (default 5) of ROUND_SECONDS (default 2) each, then each language's guard on text in
// that language (below). Asserts nothing.

let environment = ProcessInfo.processInfo.environment
let rounds = environment["ROUNDS"].flatMap(Int.init) ?? 5
let roundSeconds = environment["ROUND_SECONDS"].flatMap(Double.init) ?? 2
// Read as the worker reads an answer: validated, its ids derived from the scan's.
let answers = try FridgeAnswers.everyFridge.map { try ScanResponseContract.validateModelAnswer(Data($0.serialized().utf8), idSeed: UUID()) }
let everyAllergy = KitchenProfile(allergies: KitchenProfile.Allergen.allCases)
let dietGuard = DietGuard()

/// The process's CPU seconds spent on `work` over `roundSeconds` of wall time, and how many scans it did.
func round(_ work: (ScanResponse) -> Int) -> (cpuSeconds: Double, scans: Int) {
    let pid = getpid()
    let before = ProcessUsage(pid: pid).cpuSeconds
    let stop = ContinuousClock.now + .seconds(roundSeconds)
    var scans = 0
    var sink = 0  // the answers' results, used, so that the optimizer keeps the work
    while ContinuousClock.now < stop {
        for answer in answers { sink &+= work(answer) }
        scans += answers.count
    }
    precondition(sink >= 0)
    return (ProcessUsage(pid: pid).cpuSeconds - before, scans)
}

print("kiwi-guard-bench: \(answers.count) fridge answers, \(answers.map(\.recipes.count).reduce(0, +)) recipes; µs of CPU per scan")
print("| round | labelling (allergens of each recipe) | guarding (a profile with all 14 allergies) |")
print("|---|---|---|")
var labelling: [Double] = []
var guarding: [Double] = []
for index in 1...rounds {
    let labelled = round { answer in answer.recipes.reduce(0) { $0 + dietGuard.allergens(of: $1).count } }
    let guarded = round { answer in dietGuard.findings(in: answer, for: everyAllergy).count }
    labelling.append(1e6 * labelled.cpuSeconds / Double(labelled.scans))
    guarding.append(1e6 * guarded.cpuSeconds / Double(guarded.scans))
    print("| \(index) | \(String(format: "%.0f", labelling.last!)) | \(String(format: "%.0f", guarding.last!)) |")
}
func median(_ values: [Double]) -> String { String(format: "%.0f", values.sorted()[values.count / 2]) }
print("| median | \(median(labelling)) | \(median(guarding)) |")

// Each language's guard reading recipe text written in it: the lines of each language's first blind batch (English's
// `batch-1`), every text read for every group as labelling reads it, the languages interleaved in each round so that
// the machine's noise falls on all alike. Prints the CPU per text and its ratio to English's (issue 60 asks no language
// above 2×). Run from the package's root, or give the batches' folder in BLIND_SETS.
let setsFolder = environment["BLIND_SETS"] ?? "Tests/KiwiDietGuardTests/Fixtures/blind-allergen-set"
let texts = try AnswerLanguage.allCases.map { language in
    let file = language == .en ? "batch-1" : "\(language.rawValue)-batch-1"
    let set = try BlindAllergenSet(jsonLines: String(contentsOfFile: "\(setsFolder)/\(file).jsonl", encoding: .utf8))
    return (language: language, dietGuard: DietGuard.reading(language), texts: set.lines.map(\.text))
}
print("")
print("kiwi-guard-bench: each language's guard on its blind batch's texts; µs of CPU per text (every group, as labelling reads)")
print(
    "| round | "
        + texts.map { "\($0.language.rawValue) (\($0.texts.count) texts, \($0.texts.map(\.count).reduce(0, +) / $0.texts.count) chars)" }.joined(
            separator: " | "
        ) + " |"
)
print("|---|" + String(repeating: "---|", count: texts.count))
var perText: [[Double]] = texts.map { _ in [] }
for index in 1...rounds {
    for (position, language) in texts.enumerated() {
        let pid = getpid()
        let before = ProcessUsage(pid: pid).cpuSeconds
        let stop = ContinuousClock.now + .seconds(roundSeconds / Double(texts.count))
        var read = 0
        var sink = 0
        while ContinuousClock.now < stop {
            for text in language.texts { sink &+= language.dietGuard.groups(in: text).count }
            read += language.texts.count
        }
        precondition(sink >= 0)
        perText[position].append(1e6 * (ProcessUsage(pid: pid).cpuSeconds - before) / Double(read))
    }
    print("| \(index) | " + perText.map { String(format: "%.1f", $0.last!) }.joined(separator: " | ") + " |")
}
let medians = perText.map { $0.sorted()[$0.count / 2] }
print("| median | " + medians.map { String(format: "%.1f", $0) }.joined(separator: " | ") + " |")
print("| × English | " + medians.map { String(format: "%.2f", $0 / medians[0]) }.joined(separator: " | ") + " |")
