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
// that language and on whole answers in it (below). Asserts nothing.

let environment = ProcessInfo.processInfo.environment
let rounds = environment["ROUNDS"].flatMap(Int.init) ?? 5
let roundSeconds = environment["ROUND_SECONDS"].flatMap(Double.init) ?? 2
// Read as the worker reads an answer: validated, its ids derived from the scan's.
let answers = try FridgeAnswers.everyFridge.map { try ScanResponseContract.validateModelAnswer(Data($0.serialized().utf8), idSeed: UUID()) }
let everyAllergy = KitchenProfile(allergies: KitchenProfile.Allergen.allCases)
let dietGuard = DietGuard()

/// Labels each recipe of `answer` and guards it against every allergy, as a scan with allergies is; a count, used.
func labelledAndGuarded(_ answer: ScanResponse, by dietGuard: DietGuard) -> Int {
    answer.recipes.reduce(0) { $0 + dietGuard.allergens(of: $1).count } + dietGuard.findings(in: answer, for: everyAllergy).count
}

/// The characters of `answer`'s recipes the guard reads: names, summaries, ingredients, substitutions, steps, tips.
func characters(of answer: ScanResponse) -> Int {
    answer.recipes.reduce(0) { total, recipe in
        let texts =
            [recipe.name, recipe.summary, recipe.makeItFasterTip ?? ""] + recipe.steps
            + recipe.ingredients.flatMap { [$0.name, $0.canonicalName ?? "", $0.substitution ?? ""] }
        return total + texts.reduce(0) { $0 + $1.count }
    }
}

// Each language's canned fridge answers (English's four, one in each other language), read first of all: a word's
// compound search and forms are worked out the first time it is read and remembered after (`WordMemo`), so this first
// reading is the cost of an answer whose words the process has not met; the section at the end measures it warm.
let answersByLanguage = try AnswerLanguage.allCases.map { language in
    let written = language == .en ? FridgeAnswers.everyFridge : [FridgeAnswers.answer(forDigest: [0, 0, 0], in: language)]
    let answers = try written.map { try ScanResponseContract.validateModelAnswer(Data($0.serialized().utf8), idSeed: UUID()) }
    return (language: language, dietGuard: DietGuard.reading(language), answers: answers)
}
/// The calling thread's CPU time in µs: one first reading is a few milliseconds, finer than the process's ticks.
func threadCPUMicroseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}
let firstReading = answersByLanguage.map { language in
    let before = threadCPUMicroseconds()
    let sink = language.answers.reduce(0) { $0 + labelledAndGuarded($1, by: language.dietGuard) }
    precondition(sink >= 0)
    return (threadCPUMicroseconds() - before) / Double(language.answers.count)
}

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

// Each language's guard on a whole answer written in it (issue 60's measure): the stub's canned fridge of that
// language, and English's fridges, each labelled and guarded against every allergy as a scan with allergies is, the
// ingredients' plain English names read too. The languages interleaved in each round. Prints the CPU per answer, per
// 1,000 characters, and the first reading's, each with its ratio to English's.
print("")
print("kiwi-guard-bench: each language's guard on its canned fridge answers, labelled and guarded; µs of CPU per answer")
print("| round | " + answersByLanguage.map { "\($0.language.rawValue) (\($0.answers.count) answers)" }.joined(separator: " | ") + " |")
print("|---|" + String(repeating: "---|", count: answersByLanguage.count))
var perAnswer = [[Double]](repeating: [], count: answersByLanguage.count)
for index in 1...rounds {
    for (position, language) in answersByLanguage.enumerated() {
        let pid = getpid()
        let before = ProcessUsage(pid: pid).cpuSeconds
        let stop = ContinuousClock.now + .seconds(roundSeconds)
        var (read, sink) = (0, 0)
        while ContinuousClock.now < stop {
            for answer in language.answers { sink &+= labelledAndGuarded(answer, by: language.dietGuard) }
            read += language.answers.count
        }
        precondition(sink >= 0)
        perAnswer[position].append(1e6 * (ProcessUsage(pid: pid).cpuSeconds - before) / Double(read))
    }
    print("| \(index) | " + perAnswer.map { String(format: "%.0f", $0.last!) }.joined(separator: " | ") + " |")
}
let answerMedians = perAnswer.map { $0.sorted()[$0.count / 2] }
// The answers are not translations of each other: per 1,000 of the characters the guard reads compares the languages'
// reading at equal length.
let thousands = answersByLanguage.map { language in
    Double(language.answers.reduce(0) { $0 + characters(of: $1) }) / Double(language.answers.count) / 1000
}
func row(_ title: String, _ values: [Double], _ format: String = "%.0f") {
    print("| \(title) | " + values.map { String(format: format, $0) }.joined(separator: " | ") + " |")
}
row("median", answerMedians)
row("× English", answerMedians.map { $0 / answerMedians[0] }, "%.2f")
row("characters per answer", thousands.map { $0 * 1000 })
row("median per 1,000 characters", zip(answerMedians, thousands).map { $0 / $1 })
row("× English per character", zip(answerMedians, thousands).map { $0 / $1 / (answerMedians[0] / thousands[0]) }, "%.2f")
row("first reading (words not met before)", firstReading)
row("first reading × English", firstReading.map { $0 / firstReading[0] }, "%.2f")
