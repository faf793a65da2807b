import Foundation
import KiwiModels
import KiwiScans

/// What the recipes of a scan's answer cost the person reading it (docs/architecture.md, "What a recipe costs"):
/// counted on each read at their kitchen's prices then, as a saved recipe's cost is, so an answer is stored without
/// one and a receipt added since prices it. The prices are read only for an answer that has a recipe.
struct AnswerCosts: Sendable {
    let households: any HouseholdStore
    let kitchenPrices: KitchenPrices

    /// The prices `userID`'s answers are costed at: their kitchen's, in their currency.
    func prices(of userID: UUID) async throws -> PriceList {
        try await kitchenPrices.priceList(of: try await households.kitchen(of: userID))
    }

    /// `scan` with the recipes of its answer costed, for its resource.
    func costed(_ scan: ScanRecord) async throws -> ScanRecord {
        guard scan.answerHasRecipes else { return scan }
        return scan.costed(at: try await prices(of: scan.userID))
    }

    /// `scans` of `userID` with their recipes costed, the prices read once.
    func costed(_ scans: [ScanRecord], of userID: UUID) async throws -> [ScanRecord] {
        guard scans.contains(where: \.answerHasRecipes) else { return scans }
        let prices = try await prices(of: userID)
        return scans.map { $0.costed(at: prices) }
    }
}

extension ScanRecord {
    /// Whether the scan's answer has a recipe, a dish's included.
    var answerHasRecipes: Bool {
        guard let result else { return false }
        return !result.recipes.isEmpty || result.dish?.recipe != nil
    }

    /// Whether a worker showed a recipe of the answer it is writing.
    var showsRecipes: Bool {
        partials.contains { if case .recipe = $0.partial { true } else { false } }
    }

    /// This record with each recipe of its answer and partials costed at `prices`.
    func costed(at prices: PriceList) -> ScanRecord {
        var costed = self
        costed.result = result.map(prices.costed)
        costed.partials = partials.map { StoredPartial(seq: $0.seq, partial: prices.costed($0.partial), acceptedAt: $0.acceptedAt) }
        return costed
    }
}
