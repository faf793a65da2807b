import ArgumentParser
import Foundation
import KiwiAPIClient
import KiwiConcurrency

/// `kiwi cook ID`: a saved recipe one step at a time on a terminal, with a countdown for each step that waits on
/// something (its `durationMinutes`).
struct Cook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cook a saved recipe step by step, with a countdown for each timed step.",
        discussion: "Press Enter for the next step. A timed step asks for Enter to start its timer (s skips it); q stops."
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: .init("The saved recipe's id (`kiwi recipes`).", valueName: "ID")) var id: String
    @OptionGroup var scaling: ScalingOptions

    func validate() throws {
        _ = try IDArgument.savedRecipe(id)
    }

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let saved = try await SavedRecipeForm.json(try IDArgument.savedRecipe(id), scaling: scaling, client: client)
            let session = CookSession(
                recipe: saved.recipe,
                conflicts: saved.conflicts.map(\.reason),
                input: { readLine() },
                output: { text in
                    print(text, terminator: "")
                    fflush(nil)
                },
                clock: SystemCookClock(),
                terminal: isatty(FileHandle.standardOutput.fileDescriptor) == 1
            )
            try await session.run()
        }
    }
}

/// The time a countdown runs by: the system's, or a test's that moves only when slept on.
protocol CookClock: Sendable {
    var now: ContinuousClock.Instant { get }
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

struct SystemCookClock: CookClock {
    var now: ContinuousClock.Instant { .now }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await KiwiConcurrency.sleep(until: deadline)
    }
}

/// One walk through a recipe's steps: each waits for a line of input (Enter); a timed step's Enter starts its
/// countdown instead, on one line (a line per minute when the output is not a terminal), and the next step follows
/// when it ends. `q` stops, and so does the end of the input.
struct CookSession {
    let recipe: Components.Schemas.Recipe
    /// Where the recipe breaks the profile as it is now, in words (``RecipeLines/conflicts(_:)``).
    var conflicts: [String] = []
    /// The next line typed, without its newline; nil at the end of the input.
    let input: () -> String?
    let output: (String) -> Void
    let clock: any CookClock
    /// Whether the countdown may rewrite its line in place.
    let terminal: Bool

    /// What the person answered at a prompt.
    private enum Answer {
        case next, skip, stop
    }

    func run() async throws {
        output(
            (["\(recipe.name) — \(ScanPrinter.headline(recipe))"] + RecipeLines.conflicts(conflicts) + ["You need:"]
                + recipe.ingredients.map { "  - " + RecipeLines.ingredient($0.name, amount: $0.amount, unit: $0.unit) })
                .map { $0 + "\n" }.joined()
        )
        guard ask("Enter: start cooking · q: stop") != .stop else { return stopped(before: 1) }
        for (index, step) in recipe.steps.enumerated() {
            let number = index + 1
            output("\nStep \(number) of \(recipe.steps.count): \(step)\n")
            if let minutes = minutes(ofStep: index) {
                switch ask("Enter: start the \(RecipeLines.duration(minutes: minutes)) timer · s: skip it · q: stop") {
                case .stop: return stopped(before: number + 1)
                case .skip: continue
                case .next: try await countDown(minutes: minutes)
                }
            } else if number < recipe.steps.count, ask("Enter: next step · q: stop") == .stop {
                return stopped(before: number + 1)
            }
        }
        output("\nDone: enjoy your \(recipe.name).\n")
    }

    private func minutes(ofStep index: Int) -> Int? {
        guard let details = recipe.stepDetails, index < details.count else { return nil }
        return details[index].durationMinutes
    }

    private func ask(_ prompt: String) -> Answer {
        output("  (\(prompt)) ")
        switch input()?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "q"?, "quit"?: return .stop
        case "s"?, "skip"?: return .skip
        default: return .next
        }
    }

    private func stopped(before number: Int) {
        output(number > recipe.steps.count ? "\nStopped.\n" : "\nStopped before step \(number).\n")
    }

    /// Counts `minutes` down to zero by the clock, a second at a time, each tick aimed at its own instant from the
    /// start so that slow writes do not make the timer late.
    func countDown(minutes: Int) async throws {
        let deadline = clock.now + .seconds(minutes * 60)
        var left = minutes * 60
        while left > 0 {
            if terminal {
                output("\r\u{1B}[K  Timer: \(Self.clockFace(seconds: left)) left")
            } else if left % 60 == 0 {
                output("  Timer: \(left / 60) min left\n")
            }
            try await clock.sleep(until: deadline - .seconds(left - 1))
            left = Self.secondsLeft(until: deadline, from: clock.now)
        }
        output((terminal ? "\r\u{1B}[K" : "") + "  Time's up.\u{07}\n")
    }

    /// "19:59", "1:05:00".
    static func clockFace(seconds: Int) -> String {
        let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let rest = String(format: "%02d:%02d", minutes, seconds)
        return hours > 0 ? "\(hours):\(rest)" : String(format: "%d:%02d", minutes, seconds)
    }

    /// The whole seconds still to go, rounded up: a tick that wakes a little early still shows the second it is in.
    static func secondsLeft(until deadline: ContinuousClock.Instant, from now: ContinuousClock.Instant) -> Int {
        let remaining = now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
