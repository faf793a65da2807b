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
            throw APIError(
                .badRequest,
                .pantryFull,
                "A pantry holds at most \(PantryController.capacity) items, and these would take yours past it; nothing was added. Remove some first."
            )
        }
    }
}
