import Foundation
import KiwiBenchmarking
import KiwiConcurrency

/// When a scan's streamed events came, over the successful scans of a run through the async API: the first
/// `ingredients` event, the first `recipe` event (or a plan's first `meal` event, a receipt's first `line` event) and the
/// `result`, each timed from the start of the scan's `POST`.
struct StreamedTimes: Encodable {
    /// One successful scan's times, in milliseconds (nil: no such event came).
    struct Sample: Encodable {
        var ingredientsMs: Double?
        var firstRecipeMs: Double?
        var firstMealMs: Double?
        var firstLineMs: Double?
        var resultMs: Double
    }

    /// Successful scans.
    var scans: Int
    /// Of the scans with such an event (their `count`).
    var ingredientsMs: LatencySummary
    var firstRecipeMs: LatencySummary
    var firstMealMs: LatencySummary
    var firstLineMs: LatencySummary
    var resultMs: LatencySummary
    /// The p50 of the time to the ingredients, and to the first recipe, as a share of the p50 of the time to the
    /// result: how far into the wait the person sees them, at the median. Nil without such events.
    var ingredientsShareAtP50: Double?
    var firstRecipeShareAtP50: Double?
    var firstMealShareAtP50: Double?
    var firstLineShareAtP50: Double?
    /// `restart` events, all scans together.
    var restarts: Int
    /// Every scan's times, so that several runs' percentiles can be taken over all their scans together.
    var samples: [Sample]

    init(_ succeeded: [ScanOutcome]) {
        scans = succeeded.count
        ingredientsMs = LatencySummary(succeeded.compactMap(\.ingredientsAfter))
        firstRecipeMs = LatencySummary(succeeded.compactMap(\.firstRecipeAfter))
        firstMealMs = LatencySummary(succeeded.compactMap(\.firstMealAfter))
        firstLineMs = LatencySummary(succeeded.compactMap(\.firstLineAfter))
        resultMs = LatencySummary(succeeded.map(\.latency))
        let result = resultMs.p50
        ingredientsShareAtP50 = ingredientsMs.count > 0 && result > 0 ? ingredientsMs.p50 / result : nil
        firstRecipeShareAtP50 = firstRecipeMs.count > 0 && result > 0 ? firstRecipeMs.p50 / result : nil
        firstMealShareAtP50 = firstMealMs.count > 0 && result > 0 ? firstMealMs.p50 / result : nil
        firstLineShareAtP50 = firstLineMs.count > 0 && result > 0 ? firstLineMs.p50 / result : nil
        restarts = succeeded.reduce(0) { $0 + $1.restarts }
        samples = succeeded.map { scan in
            Sample(
                ingredientsMs: scan.ingredientsAfter.map { $0.seconds * 1000 },
                firstRecipeMs: scan.firstRecipeAfter.map { $0.seconds * 1000 },
                firstMealMs: scan.firstMealAfter.map { $0.seconds * 1000 },
                firstLineMs: scan.firstLineAfter.map { $0.seconds * 1000 },
                resultMs: scan.latency.seconds * 1000
            )
        }
    }

    /// The times as a Markdown table.
    var table: String {
        func ms(_ value: Double) -> String { String(format: "%.1f", value) }
        func row(_ name: String, _ times: LatencySummary, share: Double?) -> String {
            guard times.count > 0 else { return "| \(name) | 0 | — | — | — | — |" }
            let percent = share.map { String(format: "%.0f %%", $0 * 100) } ?? "—"
            return "| \(name) | \(times.count) | \(ms(times.p50)) | \(ms(times.p90)) | \(ms(times.p99)) | \(percent) |"
        }
        return [
            "streamed events of the \(scans) successful scans, from the POST (share: the event's p50 over the result's p50), \(restarts) restarts:",
            "",
            "| event | scans | p50 ms | p90 ms | p99 ms | share at p50 |",
            "|---|---|---|---|---|---|",
            row("ingredients", ingredientsMs, share: ingredientsShareAtP50),
            row("first recipe", firstRecipeMs, share: firstRecipeShareAtP50),
            row("first meal", firstMealMs, share: firstMealShareAtP50),
            row("first line", firstLineMs, share: firstLineShareAtP50),
            row("result", resultMs, share: 1),
        ].joined(separator: "\n")
    }
}
