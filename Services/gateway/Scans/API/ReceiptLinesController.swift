import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging

/// `PATCH /v1/scans/{id}/receipt/lines/{lineId}` (docs/architecture.md, "Receipt scans"): the person corrects a food
/// line of their receipt scan before adding it to the pantry, with no model call. The correction is kept in the scan's
/// result, so every later read, and the pantry's add, see it.
struct ReceiptLinesController: Sendable {
    let ledger: any ScanLedger

    /// The largest body read: three short members.
    static let largestBody = 4 * 1024

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.patch("scans/:id/receipt/lines/:lineId", use: correct)
    }

    /// A JSON merge patch of the line's `name`, `quantity` and `unit`: 200 with the scan as it is now; 404 for a scan
    /// that is not the caller's or has no such food line; 409 while the scan is open.
    @Sendable func correct(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let scanID = try context.pathID(else: Self.notFound)
        let lineID = try context.pathID("lineId", else: Self.notFound)
        let correction = try await request.decodedBody(
            as: ReceiptLineCorrection.self,
            largest: Self.largestBody,
            example: #"{"name": "bananas", "quantity": 0.743}"#
        )
        _ = try await ledger.finishedScan(scanID, of: session.userID, use: "correct its receipt")
        guard let corrected = try await ledger.correct(correction, ofLine: lineID, inScan: scanID, of: session.userID) else { throw Self.notFound }
        context.logger.info("receipt line corrected", metadata: ["scanId": "\(scanID)"])
        return try Response.json(corrected.resource)
    }

    private static let notFound = APIError(.notFound, .notFound, "The scan has no receipt with a food line of that id.")
}

/// A person's correction of a receipt's food line: a new `name`, `quantity` or `unit`, each by the pantry's rules; a
/// member left out keeps its value, and none may be cleared (a food line has all three). Any other member is 400. A new
/// unit drops the line's `unitPrice`, which was the price of the old one: the line's total over its quantity prices it.
struct ReceiptLineCorrection: Decodable, Sendable, Hashable {
    var name: String?
    var quantity: Double?
    var unit: QuantityUnit?

    private static let quantityRule = APIError.badRequest(
        "quantity must be a number greater than 0 and at most \(Int(PantryItemFields.largestQuantity))."
    )
    private static let unitRule = APIError.badRequest("unit must be one of \(QuantityUnit.pantryUnits.map(\.rawValue).joined(separator: ", ")).")

    init(name: String? = nil, quantity: Double? = nil, unit: QuantityUnit? = nil) {
        (self.name, self.quantity, self.unit) = (name, quantity, unit)
    }

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["name", "quantity", "unit"])
        if let text: String = try body.value("name", else: PantryItemFields.nameNeeded) { name = try PantryItemFields.checkedName(text).text }
        let number: Double? = try body.value("quantity", else: Self.quantityRule)
        quantity = try number.map { try PantryItemFields.checkedQuantity($0, else: Self.quantityRule) }
        let unitName: String? = try body.value("unit", else: Self.unitRule)
        unit = try unitName.map { try PantryItemFields.checkedUnit($0, else: Self.unitRule) }
        guard name != nil || quantity != nil || unit != nil else {
            throw APIError.badRequest(#"Send what to correct: name, quantity or unit, e.g. {"quantity": 0.743}."#)
        }
    }

    /// `receipt` with the correction made to its food line `lineID`; nil when it has no such food line.
    func applied(to receipt: ReceiptAnswer, line lineID: UUID) -> ReceiptAnswer? {
        guard let index = receipt.lines.firstIndex(where: { $0.id == lineID && $0.kind == .food }) else { return nil }
        var corrected = receipt
        if let name {
            // A name typed by hand is keyed by itself: the English name the model gave the old one no longer names it.
            corrected.lines[index].name = name
            corrected.lines[index].canonicalName = nil
        }
        corrected.lines[index].quantity = quantity ?? corrected.lines[index].quantity
        if let unit, unit != corrected.lines[index].unit {
            corrected.lines[index].unit = unit
            corrected.lines[index].unitPrice = nil
        }
        return corrected
    }
}
