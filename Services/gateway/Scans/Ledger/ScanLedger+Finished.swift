import Foundation
import HTTPTypes
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// A finished scan as the features built on one (the pantry, the recipe box, the shopping list) take it, with the
/// answers they share.
extension ScanLedger {
    /// The user's finished scan `scanID`: 404 when it is not theirs or is gone; 409 `scan_in_progress` while it is
    /// open, the message saying to `use` it once it has finished.
    func finishedScan(_ scanID: UUID, of userID: UUID, use: String) async throws -> ScanRecord {
        guard let scan = try await scan(scanID, of: userID) else {
            throw APIError(.notFound, .notFound, "There is no such scan; it may have passed its retention period.")
        }
        guard !scan.state.isOpen else {
            throw APIError(.conflict, .scanInProgress, "The scan has not finished yet; \(use) once it has.")
        }
        return scan
    }

    /// The recipe `recipeID` of the user's finished scan `scanID`, for saving it or shopping for it: as
    /// ``finishedScan(_:of:use:)``, and 404 when the scan has no such recipe.
    func finishedRecipe(
        _ recipeID: UUID,
        ofScan scanID: UUID,
        of userID: UUID
    ) async throws -> (scan: ScanRecord, result: ScanResponse, recipe: Recipe) {
        let scan = try await finishedScan(scanID, of: userID, use: "use its recipes")
        guard let result = scan.result, let recipe = result.recipes.first(where: { $0.id == recipeID }) else {
            throw APIError(.notFound, .notFound, "The scan has no recipe with that id.")
        }
        return (scan, result, recipe)
    }
}
