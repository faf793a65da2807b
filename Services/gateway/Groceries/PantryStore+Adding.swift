import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging

extension PantryStore {
    /// Adds `items` as every route does: all or none at ``PantryController/capacity`` (400 `pantry_full`), counting
    /// the new ones and the pantry's size. The pantry's own adds and the shopping list's move into it.
    func add(_ items: [PantryItem], for kitchen: Kitchen, metrics: GatewayMetrics, context: GatewayRequestContext) async throws -> [PantryItem] {
        switch try await add(items, for: kitchen, capacity: PantryController.capacity) {
        case .added(let stored, let count):
            let new = zip(items, stored).filter { $0.id == $1.id }.count
            metrics.pantryAdded(newItems: new, holding: count)
            context.logger.info("pantry items added", metadata: ["new": "\(new)", "found": "\(stored.count - new)"])
            return stored
        case .full:
            throw Self.full
        }
    }

    /// Adds a receipt's `purchases` as ``add(_:for:metrics:context:)`` adds items, at the same capacity; another scan of
    /// the same receipt is 409 `receipt_already_added`, naming the scan added first.
    func addPurchases(
        _ purchases: [Purchase],
        from receipt: ReceiptAddition,
        for kitchen: Kitchen,
        metrics: GatewayMetrics,
        context: GatewayRequestContext
    ) async throws -> [PantryItem] {
        switch try await addPurchases(purchases, from: receipt, for: kitchen, capacity: PantryController.capacity) {
        case .added(let stored, let count):
            let new = Set(purchases.map(\.item.id)).intersection(stored.map(\.id)).count
            metrics.pantryAdded(newItems: new, holding: count)
            context.logger.info(
                "receipt added to the pantry",
                metadata: ["scanId": "\(receipt.scanID)", "new": "\(new)", "found": "\(stored.count - new)"]
            )
            return stored
        case .full:
            throw Self.full
        case .sameReceipt(let first):
            var body = ErrorBody(
                error: .receiptAlreadyAdded,
                message: "This receipt went into your pantry before, from scan \(first.uuidString.lowercased()); add it again with again=true "
                    + "only if you bought the same twice."
            )
            body.scanId = first
            throw APIError(.conflict, body: body)
        }
    }

    private static var full: APIError {
        APIError(
            .badRequest,
            .pantryFull,
            "A pantry holds at most \(PantryController.capacity) items, and these would take yours past it; nothing was added. Remove some first."
        )
    }
}
