import Crypto
import Foundation
import KiwiDietGuard
import KiwiFood
import KiwiModels
import KiwiServiceSupport

/// One food line of a receipt on its way into the pantry: the item it makes, with the quantity bought.
struct Purchase: Sendable, Hashable {
    /// The receipt line's id: a line goes into a pantry once.
    let lineID: UUID
    let item: PantryItem
}

/// Which receipt the purchases come from, as a pantry remembers it (docs/architecture.md, "Receipts in the pantry").
struct ReceiptAddition: Sendable, Hashable {
    let scanID: UUID
    /// What makes two scans one receipt (``PantryPurchases/fingerprint(of:)``); nil when the receipt prints no date.
    let fingerprint: String?
    /// Whether to add it even when the pantry has another scan of the same receipt (two identical shops).
    let again: Bool
}

/// What became of adding a receipt's purchases to a pantry.
enum PurchaseAdding: Sendable, Hashable {
    /// The purchases' items as they are now, in the order of their first lines, and how many the pantry holds. Lines
    /// added before are not added again: with nothing new, the items are as they were.
    case added([PantryItem], count: Int)
    /// The new items would take the pantry past its capacity: nothing was added.
    case full
    /// Another scan of the same receipt went into this pantry: nothing was added.
    case sameReceipt(firstScanID: UUID)
}

/// A receipt's food lines made pantry items (docs/architecture.md, "Receipts in the pantry"): purchases add to what the
/// pantry holds, where a fridge scan says what is there. Pure, so that the real store and the fake add alike.
enum PantryPurchases {
    /// The receipt's food lines, or those of `picked` (line ids, which must all be food lines of it; nil: all) as
    /// purchases of scan `scanID`, bought on `day` and added at `now`. A line whose name makes no pantry name is left
    /// out. Throws ``unknownLines`` for a picked id that is not a food line of the receipt.
    static func purchases(of receipt: ReceiptAnswer, scanID: UUID, picked: [UUID]?, boughtOn day: CalendarDay, at now: Date) throws -> [Purchase] {
        let food = receipt.lines.filter { $0.kind == .food }
        if let picked, !Set(picked).isSubset(of: food.map(\.id)) { throw unknownLines }
        let chosen = picked.map { picked in food.filter { picked.contains($0.id) } } ?? food
        return chosen.compactMap { line in
            guard let text = line.name, let name = try? PantryItemFields.checkedName(text, keyedBy: line.canonicalName) else { return nil }
            let section = StoreSection(key: name.key)
            var item = PantryItem.new(name: name, section: section, quantity: line.quantity, unit: line.unit, source: .scan, scanId: scanID, at: now)
            item.useSoonBy = ShelfLife.estimatedUseBy(key: name.key, section: section, addedOn: day)
            item.useSoonEstimated = item.useSoonBy != nil
            item.price = price(of: line, currency: receipt.currency)
            return Purchase(lineID: line.id, item: item)
        }
    }

    /// The price of each food `purchases` bought, by key: a later line's where two lines are of one food.
    static func prices(of purchases: [Purchase]) -> [String: PantryPrice] {
        Dictionary(purchases.compactMap { purchase in purchase.item.price.map { (purchase.item.key, $0) } }, uniquingKeysWith: { _, later in later })
    }

    /// What one unit of the line's food cost: its printed unit price, else its total over its quantity; nil without
    /// a unit or a positive price.
    static func price(of line: ReceiptLine, currency: String) -> PantryPrice? {
        guard let unit = line.unit, let quantity = line.quantity, quantity > 0 else { return nil }
        let amount = line.unitPrice.flatMap { $0 > 0 ? $0 : nil } ?? line.total / quantity
        return amount > 0 ? PantryPrice(amount: amount, unit: unit, currency: currency) : nil
    }

    /// The 400 of a `lines` member that names a line the receipt has no food line of.
    static let unknownLines = APIError.badRequest("lines must be ids of the receipt's food lines, as the scan's receipt gives them.")

    /// The day the receipt says it was bought on, never after `today`; `today` when it prints none (or a day that is
    /// not one).
    static func purchaseDay(of receipt: ReceiptAnswer, today: CalendarDay) -> CalendarDay {
        guard let printed = receipt.date.flatMap(CalendarDay.init) else { return today }
        return min(printed, today)
    }

    /// The SHA-256 of the shop, the day and time, the total and the number of lines: what two scans of one receipt
    /// share, and two shops rarely do, kept as a digest so that the pantry keeps no record of where and when its
    /// owner shopped. Nil when the receipt prints no date, which leaves too little to tell two shops apart.
    static func fingerprint(of receipt: ReceiptAnswer) -> String? {
        guard let date = receipt.date else { return nil }
        let store = receipt.storeName.map { IngredientKey.of($0) } ?? ""
        let cents = Int((receipt.total * 100).rounded())
        let text = [store, date, receipt.time ?? "", receipt.currency, String(cents), String(receipt.lines.count)].joined(separator: "|")
        return Array(SHA256.hash(data: Data(text.utf8))).hexEncodedString
    }

    /// The pantry's items once `purchases` are added to `existing` (the pantry's items by key), one per key in the
    /// order of its first purchase: what was bought of a food, summed (two bottles of milk are two litres), is added to
    /// what the pantry holds when the two convert (``ShoppingQuantity/sum(_:key:)``: the same unit, volumes, weights);
    /// otherwise, or when the pantry holds the food without an amount, the purchase's amount stands, the newest known.
    static func items(adding purchases: [Purchase], to existing: [String: PantryItem]) -> [PantryItem] {
        var bought: [String: PantryItem] = [:]
        for purchase in purchases {
            guard var item = bought[purchase.item.key] else {
                bought[purchase.item.key] = purchase.item
                continue
            }
            (item.quantity, item.unit) = sum(item, purchase.item)
            item.price = purchase.item.price ?? item.price
            bought[purchase.item.key] = item
        }
        return firstKeys(of: purchases).compactMap { key in
            guard var item = bought[key] else { return nil }
            if let held = existing[key], held.quantity != nil { (item.quantity, item.unit) = sum(held, item) }
            return item
        }
    }

    /// The keys of `purchases`, each once, in the order of its first purchase: the order an add answers its items in.
    static func firstKeys(of purchases: [Purchase]) -> [String] {
        var seen: Set<String> = []
        return purchases.map(\.item.key).filter { seen.insert($0).inserted }
    }

    /// The two items' amounts summed when they convert, else `newer`'s.
    private static func sum(_ older: PantryItem, _ newer: PantryItem) -> (Double?, QuantityUnit?) {
        // A quantity without a unit is a number of things.
        guard let a = older.quantity, let b = newer.quantity,
            let total = ShoppingQuantity.sum([Quantity(a, older.unit ?? .piece), Quantity(b, newer.unit ?? .piece)], key: newer.key)
        else { return (newer.quantity, newer.unit) }
        // Within the pantry's bound, to a thousandth, as a pantry's amounts are typed.
        return (min((total.amount * 1000).rounded() / 1000, PantryItemFields.largestQuantity), total.unit)
    }
}
