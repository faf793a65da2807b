import Foundation

@testable import KiwiGateway

/// A fake store of one part of a kitchen, as ``FakeHouseholdStore`` merges and empties kitchens: what
/// `PostgresKitchen` does to the part's table.
protocol FakeKitchenPart: Sendable {
    /// What kitchens `target` and `source` hold, and what they would hold merged, each duplicate once.
    func counts(of target: UUID, and source: UUID) -> (target: Int, source: Int, merged: Int)
    /// Merges kitchen `source` into `target` as `PostgresKitchen.merge` does.
    func merge(_ source: UUID, into target: UUID)
    func empty(_ kitchenID: UUID)
}
