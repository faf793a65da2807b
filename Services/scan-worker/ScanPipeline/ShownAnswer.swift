import KiwiModels

/// What a scan's client shows of its answer while it streams, and what to send it as an attempt's elements arrive, so
/// that no attempt contradicts what an earlier one showed without saying so (docs/architecture.md, "Streamed scans").
///
/// An attempt's elements come in the answer's order: its ingredients, then each recipe fit to show. The k-th equal to
/// the k-th shown is confirmed silently; the first that differs withdraws everything shown (`restart`) and sends the
/// attempt's elements so far again; from there on, what the attempt accepts is what is shown. A retry, a repair, the
/// guard's repair and a redelivered job (which starts from what the claim says is shown) all go through it alike.
struct ShownAnswer: Sendable, Hashable {
    /// What the client shows now: the partials after the last restart, in order.
    private(set) var shown: [ScanPartial]
    /// The current attempt's elements, in order; what is shown always starts with them.
    private(set) var attempt: [ScanPartial] = []

    /// What the client shows when the scan's job starts: the claim's partials after the last restart.
    init(shown: [ScanPartial] = []) {
        self.shown = shown
    }

    /// The attempt's ingredients, once accepted: what its recipes are guarded with.
    var ingredients: [Ingredient]? {
        guard case .ingredients(let ingredients)? = attempt.first else { return nil }
        return ingredients
    }

    /// A new attempt (a retry, a repair, another route) starts writing its answer from the beginning.
    mutating func beginAttempt() {
        attempt = []
    }

    /// The attempt's ingredients; returns the partials to show for them (none when they confirm what is shown).
    mutating func accept(ingredients: [Ingredient]) -> [ScanPartial] {
        accept(.ingredients(ingredients))
    }

    /// The attempt's next recipe to show, validated, guarded and labelled; returns the partials to show for it. A recipe
    /// before the attempt's ingredients is not shown: it was guarded with none.
    mutating func accept(recipe: Recipe) -> [ScanPartial] {
        guard ingredients != nil else { return [] }
        return accept(.recipe(index: attempt.count - 1, recipe))
    }

    /// The attempt's next meal of a plan, validated and checked against those accepted before it; returns the partials
    /// to show for it.
    mutating func accept(meal: PlannedMeal) -> [ScanPartial] {
        accept(.meal(index: attempt.count, meal))
    }

    /// The attempt's next line of a receipt, validated; returns the partials to show for it.
    mutating func accept(line: ReceiptLine) -> [ScanPartial] {
        accept(.line(index: attempt.count, line))
    }

    /// The attempt's meals accepted so far, in order: what the next is checked against.
    var meals: [PlannedMeal] {
        attempt.compactMap { if case .meal(_, let meal) = $0 { meal } else { nil } }
    }

    private mutating func accept(_ element: ScanPartial) -> [ScanPartial] {
        let position = attempt.count
        attempt.append(element)
        if position < shown.count {
            if shown[position] == element { return [] }
            shown = attempt
            return [.restart] + attempt
        }
        shown.append(element)
        return [element]
    }
}
