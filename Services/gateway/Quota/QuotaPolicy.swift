import Foundation

/// The daily allowances, renewed at midnight UTC: `limit` scans per person (docs/architecture.md, "4. The quota strategy");
/// optionally a cap on the model tokens one person spends (`LLM_USER_DAILY_TOKENS`), and a budget for what everyone's
/// scans cost (`LLM_DAILY_BUDGET_USD`; docs/architecture.md, "Spend and model routes").
struct QuotaPolicy: Sendable {
    let limit: Int
    /// The most model tokens (prompt and completion) one person's scans may spend a day; nil: no cap.
    var tokenLimit: Int?
    /// The most everyone's scans may cost a day, in nano-dollars; nil: no budget.
    var dailyBudgetNanos: Int64?
    /// How many refinements of each photo scan are free (docs/architecture.md, "Refinements"): counted over the scan's
    /// whole chain of refinements, failed ones not counted. A free one does not count as a scan, and meets only the
    /// token limit and the budget; later ones count as scans.
    var freeRefinements = 2

    /// Why a new scan is refused.
    enum Refusal: Sendable, Hashable {
        /// The person's scans of the day are used up: 429.
        case scans
        /// The person's scans spent the day's tokens: 429.
        case tokens
        /// Everyone's scans spent the day's budget: 503 until midnight UTC.
        case budget
    }

    init(limit: Int, tokenLimit: Int? = nil, dailyBudgetNanos: Int64? = nil) {
        self.limit = limit
        self.tokenLimit = tokenLimit
        self.dailyBudgetNanos = dailyBudgetNanos
    }

    /// Why a new scan is refused after `usage`; nil when it may go ahead: the first allowance spent, in the order
    /// scans, tokens, everyone's budget; a limit not set never refuses. A `free` refinement meets no scan limit.
    ///
    /// The quota rule lives here and only here, because it is read where there is no database: before an upload, by
    /// `/v1/quota` and by the in-memory ledger of the tests. A reservation must check and insert in one atomic step,
    /// which only PostgreSQL can take under the person's lock, so `kiwi_reserve_scan` is handed this policy's limits
    /// and only compares the usage it reads with them (no refusal is named there). It answers with that usage, by
    /// column name, and ``PostgresScanLedger`` names the refusal by this function from the very numbers compared.
    func refusal(after usage: DailyUsage, free: Bool = false) -> Refusal? {
        if usage.scans >= limit, !free { return .scans }
        if let tokenLimit, usage.tokens >= tokenLimit { return .tokens }
        if let dailyBudgetNanos, usage.everyonesSpendNanos >= dailyBudgetNanos { return .budget }
        return nil
    }

    /// Scans the person may still start today: none once their tokens are spent.
    func remaining(after usage: DailyUsage) -> Int {
        if let tokenLimit, usage.tokens >= tokenLimit { return 0 }
        return max(0, limit - usage.scans)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The UTC day `now` falls on, as PostgreSQL's `date` reads it (`2026-11-22`).
    func day(of now: Date) -> String {
        Self.utcDay(of: now)
    }

    /// `date`'s day in UTC, `yyyy-MM-dd`.
    static func utcDay(of date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The next midnight UTC after `now`: when the allowance renews.
    func resetsAt(after now: Date) -> Date {
        Self.utc.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .strict)!
    }

    /// Whole seconds until the allowance renews, for `Retry-After` (at least 1).
    func retryAfterSeconds(at now: Date) -> Int {
        max(1, Int(resetsAt(after: now).timeIntervalSince(now).rounded(.up)))
    }
}

/// What counts against the allowances on one UTC day.
struct DailyUsage: Sendable, Hashable {
    /// The person's scans that are not `failed`, and their charges kept outside the ledger.
    var scans = 0
    /// The model tokens the person's scans spent.
    var tokens = 0
    /// What everyone's scans cost, in nano-dollars.
    var everyonesSpendNanos: Int64 = 0
}
