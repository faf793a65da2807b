import Foundation
import KiwiAPIClient
import KiwiModels
import Synchronization
import Testing

@testable import KiwiCLI

@Suite("kiwi cook: the steps one at a time, with countdowns")
struct CookSessionTests {
    /// A clock that never waits: sleeping moves it to the deadline, and each sleep is recorded.
    final class TestClock: CookClock {
        let start = ContinuousClock.now
        private let state = Mutex<(now: ContinuousClock.Instant, sleeps: Int)>((.now, 0))

        init() {
            state.withLock { $0.now = start }
        }

        var now: ContinuousClock.Instant { state.withLock { $0.now } }
        var sleeps: Int { state.withLock { $0.sleeps } }
        var elapsed: Duration { start.duration(to: now) }

        func sleep(until deadline: ContinuousClock.Instant) async throws {
            state.withLock { state in
                state.now = max(state.now, deadline)
                state.sleeps += 1
            }
        }
    }

    /// A session over `recipe` with `typed` as its input lines; what it wrote is in `text` afterwards.
    final class Cook {
        var typed: [String]
        var text = ""
        let clock = TestClock()

        init(typing typed: [String]) {
            self.typed = typed
        }

        func cook(_ recipe: Recipe, conflicts: [String] = [], terminal: Bool = true) async throws {
            try await CookSession(
                recipe: try CookingRecipes.decoded(recipe),
                conflicts: conflicts,
                input: { self.typed.isEmpty ? nil : self.typed.removeFirst() },
                output: { self.text += $0 },
                clock: clock,
                terminal: terminal
            ).run()
        }
    }

    @Test("every step is shown in order, each after an Enter, and the walk ends with the recipe done")
    func walksTheSteps() async throws {
        // Start, step 1's timer, step 2's next, step 3's timer: the last step asks nothing.
        let cook = Cook(typing: Array(repeating: "", count: 4))
        try await cook.cook(CookingRecipes.pasta)
        let steps = ["Step 1 of 4: Boil the spaghetti.", "Step 2 of 4: Chop", "Step 3 of 4: Simmer", "Step 4 of 4: Toss"]
        let positions = try steps.map { try #require(cook.text.range(of: $0)).lowerBound }
        #expect(positions == positions.sorted())
        #expect(cook.text.hasPrefix("Tomato pasta — 25 min, easy, serves 2\nYou need:\n  - 200 g spaghetti\n"))
        #expect(cook.text.hasSuffix("Done: enjoy your Tomato pasta.\n"))
        #expect(cook.typed.isEmpty)
    }

    @Test("a recipe that breaks the profile as it is now says so before the ingredients, and the walk waits for Enter")
    func warnsOfConflicts() async throws {
        let cook = Cook(typing: [])
        try await cook.cook(CookingRecipes.pasta, conflicts: ["It uses parmesan, which contains milk."])
        #expect(
            cook.text.hasPrefix(
                "Tomato pasta — 25 min, easy, serves 2\nCareful: this recipe does not fit your profile as it is now.\n"
                    + "  ! It uses parmesan, which contains milk.\nYou need:\n"
            )
        )
        #expect(cook.text.hasSuffix("Stopped before step 1.\n"))
    }

    @Test("a timed step counts its minutes down a second at a time on one line, by the clock, then says time's up")
    func countsDownOnOneLine() async throws {
        let cook = Cook(typing: [])
        try await CookSession(
            recipe: try CookingRecipes.decoded(CookingRecipes.pasta),
            input: { nil },
            output: { cook.text += $0 },
            clock: cook.clock,
            terminal: true
        ).countDown(minutes: 10)
        #expect(cook.clock.elapsed == .seconds(600))
        #expect(cook.clock.sleeps == 600)
        #expect(!cook.text.contains("\n") || cook.text.hasSuffix("Time's up.\u{07}\n"))
        #expect(cook.text.hasPrefix("\r\u{1B}[K  Timer: 10:00 left\r\u{1B}[K  Timer: 9:59 left"))
        #expect(cook.text.contains("\r\u{1B}[K  Timer: 0:01 left\r\u{1B}[K  Time's up."))
    }

    @Test("the countdown runs between its step and the next one, after the Enter that starts it, and the next step follows it")
    func timerBeforeNextStep() async throws {
        let cook = Cook(typing: Array(repeating: "", count: 4))
        try await cook.cook(CookingRecipes.pasta)
        #expect(cook.clock.elapsed == .seconds((9 + 10) * 60))
        let simmer = try #require(cook.text.range(of: "Step 3 of 4"))
        let timesUp = try #require(cook.text.range(of: "Time's up.", range: simmer.upperBound..<cook.text.endIndex))
        let toss = try #require(cook.text.range(of: "Step 4 of 4"))
        #expect(simmer.upperBound < timesUp.lowerBound && timesUp.upperBound < toss.lowerBound)
        #expect(cook.text.contains("(Enter: start the 10 min timer · s: skip it · q: stop)"))
    }

    @Test("s skips a step's timer without waiting")
    func skipsATimer() async throws {
        let cook = Cook(typing: ["", "s", "", "s"])
        try await cook.cook(CookingRecipes.pasta)
        #expect(cook.clock.sleeps == 0)
        #expect(!cook.text.contains("Time's up"))
        #expect(cook.text.hasSuffix("Done: enjoy your Tomato pasta.\n"))
    }

    @Test("q stops before the next step, and so does the end of the input")
    func stops() async throws {
        let quitting = Cook(typing: ["", "s", "q"])
        try await quitting.cook(CookingRecipes.pasta)
        #expect(quitting.text.hasSuffix("Stopped before step 3.\n"))
        #expect(quitting.text.contains("Step 2 of 4") && !quitting.text.contains("Step 3 of 4"))

        let ended = Cook(typing: [])
        try await ended.cook(CookingRecipes.pasta)
        #expect(ended.text.hasSuffix("Stopped before step 1.\n"))
        #expect(!ended.text.contains("Step 1 of 4"))
    }

    @Test("off a terminal the countdown writes a line a minute instead of rewriting one")
    func lineAMinuteOffTerminal() async throws {
        let cook = Cook(typing: [])
        try await CookSession(
            recipe: try CookingRecipes.decoded(CookingRecipes.pasta),
            input: { nil },
            output: { cook.text += $0 },
            clock: cook.clock,
            terminal: false
        ).countDown(minutes: 2)
        #expect(cook.text == "  Timer: 2 min left\n  Timer: 1 min left\n  Time's up.\u{07}\n")
    }

    @Test("a recipe answered before Kiwi timed steps is walked without timers")
    func olderRecipeHasNoTimers() async throws {
        let cook = Cook(typing: Array(repeating: "", count: 4))
        try await cook.cook(CookingRecipes.olderPasta)
        #expect(cook.clock.sleeps == 0)
        #expect(!cook.text.contains("timer"))
        #expect(cook.text.hasSuffix("Done: enjoy your Tomato pasta.\n"))
    }

    @Test("the time left is shown in whole seconds rounded up, as m:ss or h:mm:ss")
    func clockFace() {
        let deadline = ContinuousClock.now + .seconds(100)
        #expect(CookSession.secondsLeft(until: deadline, from: deadline - .milliseconds(1500)) == 2)
        #expect(CookSession.secondsLeft(until: deadline, from: deadline + .seconds(1)) == 0)
        #expect(CookSession.clockFace(seconds: 599) == "9:59")
        #expect(CookSession.clockFace(seconds: 3900) == "1:05:00")
    }
}
