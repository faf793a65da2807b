import Foundation
import KiwiFood
import KiwiModels
import KiwiServiceSupport
import Testing

@testable import KiwiGateway

/// A receipt's food lines as pantry items (``PantryPurchases``): what was bought adds to what is held.
@Suite("Pantry purchases")
struct PantryPurchasesTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let scanID = UUID()

    func line(
        _ text: String,
        _ kind: ReceiptLineKind,
        _ name: String? = nil,
        _ quantity: Double? = nil,
        _ unit: QuantityUnit? = nil,
        total: Double
    )
        -> ReceiptLine
    {
        ReceiptLine(id: UUID(), text: text, kind: kind, name: name, quantity: quantity, unit: unit, unitPrice: nil, total: total)
    }

    func receipt(_ lines: [ReceiptLine], date: String? = "2026-11-27") -> ReceiptAnswer {
        ReceiptAnswer(storeName: "FreshMart", date: date, time: "18:42", currency: "EUR", lines: lines, total: lines.reduce(0) { $0 + $1.total })
    }

    func items(_ receipt: ReceiptAnswer, holding held: [PantryItem] = []) throws -> [PantryItem] {
        let purchases = try PantryPurchases.purchases(of: receipt, scanID: scanID, picked: nil, boughtOn: CalendarDay("2026-11-27")!, at: now)
        return PantryPurchases.items(adding: purchases, to: Dictionary(uniqueKeysWithValues: held.map { ($0.key, $0) }))
    }

    func held(_ name: String, _ quantity: Double?, _ unit: QuantityUnit?) throws -> PantryItem {
        PantryItem.new(name: try PantryItemFields.checkedName(name), section: .dairy, quantity: quantity, unit: unit, source: .manual, at: now)
    }

    @Test("a weight-priced line goes in by its weight, and two lines of one food are one item of both")
    func weightAndRepeatedLines() throws {
        let bananas = line("BANANAS LOOSE 0.734kg @ 2.99/kg", .food, "bananas", 0.734, .kg, total: 2.19)
        let milk = line("WHOLE MILK 1L", .food, "whole milk", 1, .l, total: 1.19)
        let found = try items(receipt([bananas, milk, milk, line("CARRIER BAG", .other, total: 0.2), line("MULTIBUY", .discount, total: -0.5)]))
        #expect(found.map(\.name) == ["bananas", "whole milk"])
        #expect(found.map(\.quantity) == [0.734, 2] && found.map(\.unit) == [.kg, .l])
        #expect(found.allSatisfy { $0.source == .scan && $0.scanId == scanID })
    }

    @Test("what was bought adds to what is held in a unit that converts; otherwise, or held without an amount, the purchase stands")
    func purchasesAddToWhatIsHeld() throws {
        let bought = receipt([
            line("MILK 1L", .food, "whole milk", 1, .l, total: 1.19), line("FLOUR 1KG", .food, "flour", 1, .kg, total: 0.99),
            line("CRISPS 150G", .food, "kiwi crisps", 150, .g, total: 1.49), line("RICE 1KG", .food, "rice", 1, .kg, total: 2.29),
            line("TOMATOES", .food, "chopped tomatoes", 1, .can, total: 0.59),
        ])
        let found = try items(
            bought,
            holding: [
                held("whole milk", 500, .ml), held("flour", 250, .g), held("kiwi crisps", 1, .pack), held("rice", nil, nil),
                held("chopped tomatoes", 300, .g),
            ]
        )
        #expect(found.map(\.quantity) == [1500, 1250, 150, 1, 700])
        #expect(found.map(\.unit) == [.ml, .g, .g, .kg, .g])
    }

    @Test("a new item is to be used soon from the day on the receipt, which is never after today")
    func useSoonFromThePurchaseDay() throws {
        let bananas = line("BANANAS 0.734kg", .food, "bananas", 0.734, .kg, total: 2.19)
        let purchases = try PantryPurchases.purchases(
            of: receipt([bananas]),
            scanID: scanID,
            picked: nil,
            boughtOn: CalendarDay("2026-11-20")!,
            at: now
        )
        #expect(purchases.first?.item.useSoonBy == CalendarDay("2026-11-25") && purchases.first?.item.useSoonEstimated == true)
        let today = CalendarDay("2026-11-28")!
        #expect(PantryPurchases.purchaseDay(of: receipt([bananas], date: "2026-12-30"), today: today) == today)
        #expect(PantryPurchases.purchaseDay(of: receipt([bananas], date: nil), today: today) == today)
        #expect(PantryPurchases.purchaseDay(of: receipt([bananas]), today: today) == CalendarDay("2026-11-27"))
    }

    @Test("picked lines must be the receipt's food lines")
    func pickedLinesAreChecked() throws {
        let milk = line("MILK 1L", .food, "whole milk", 1, .l, total: 1.19)
        let bag = line("CARRIER BAG", .other, total: 0.2)
        let bought = receipt([milk, bag])
        let day = CalendarDay("2026-11-27")!
        #expect(try PantryPurchases.purchases(of: bought, scanID: scanID, picked: [milk.id], boughtOn: day, at: now).map(\.lineID) == [milk.id])
        #expect(throws: APIError.self) { try PantryPurchases.purchases(of: bought, scanID: scanID, picked: [bag.id], boughtOn: day, at: now) }
        #expect(throws: APIError.self) { try PantryPurchases.purchases(of: bought, scanID: scanID, picked: [UUID()], boughtOn: day, at: now) }
    }

    @Test("a receipt's fingerprint is the digest of its shop, day, time, currency, total and number of lines; none without a printed date")
    func fingerprint() throws {
        let lines = [line("MILK 1L", .food, "whole milk", 1, .l, total: 1.19)]
        let fingerprint = try #require(PantryPurchases.fingerprint(of: receipt(lines)))
        #expect(fingerprint.count == 64 && fingerprint.allSatisfy(\.isHexDigit), "a digest, which says nothing of the shop: \(fingerprint)")
        #expect(PantryPurchases.fingerprint(of: receipt(lines)) == fingerprint)
        var later = receipt(lines)
        later.time = "18:43"
        #expect(PantryPurchases.fingerprint(of: later) != fingerprint)
        #expect(PantryPurchases.fingerprint(of: receipt(lines, date: nil)) == nil)
    }
}
