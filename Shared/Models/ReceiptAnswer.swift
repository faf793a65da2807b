import Foundation

/// What a receipt scan (`mode=receipt`) read off one shopping receipt, photographed in one or more parts
/// (docs/architecture.md, "Receipt scans"): the shop, when, in which currency, every printed line, and the total.
public struct ReceiptAnswer: Codable, Hashable, Sendable {
    /// The shop's name as printed; absent when the photos do not show it.
    public var storeName: String?
    /// The day of the purchase as printed (`yyyy-MM-dd`); absent when the photos do not show it.
    public var date: String?
    /// The time of the purchase as printed (`HH:mm`, 24-hour); absent when the photos do not show it.
    public var time: String?
    /// ISO 4217 (``Currency/codes``).
    public var currency: String
    /// Every line, in the printed order.
    public var lines: [ReceiptLine]
    /// The total as printed.
    public var total: Double
    /// Present when the lines' totals do not add up to the printed total: a line was misread or is missing (a part of
    /// the receipt not photographed), and the person should look before adding it to the pantry.
    public var totalMismatch: ReceiptTotalMismatch?

    public init(
        storeName: String?,
        date: String?,
        time: String?,
        currency: String,
        lines: [ReceiptLine],
        total: Double,
        totalMismatch: ReceiptTotalMismatch? = nil
    ) {
        self.storeName = storeName
        self.date = date
        self.time = time
        self.currency = currency
        self.lines = lines
        self.total = total
        self.totalMismatch = totalMismatch
    }
}

/// What a receipt's line is: food (it can go into the pantry), anything else bought (`other`: bags, detergent), a
/// discount (a negative amount), or a deposit on bottles or crates (paid, or refunded when negative).
public enum ReceiptLineKind: String, Codable, Hashable, Sendable, CaseIterable {
    case food
    case other
    case discount
    case deposit
}

/// One printed line of a receipt.
public struct ReceiptLine: Codable, Hashable, Sendable, Identifiable {
    /// Assigned by the server, never by the model.
    public var id: UUID
    /// The line as printed ("BANANAS LOOSE 0.734 kg @ 2.99/kg").
    public var text: String
    public var kind: ReceiptLineKind
    /// For food, a plain name a pantry knows it by ("bananas"), in the receipt's answer's language; absent for any
    /// other kind.
    public var name: String?
    /// For food on a receipt read in another language than English, its plain English name, which the pantry keys it by;
    /// absent otherwise.
    public var canonicalName: String?
    /// For food, how much was bought, in ``unit`` (always positive); weight-priced food in `kg` or `g`.
    public var quantity: Double?
    /// For food, one of the pantry's units (``QuantityUnit/pantryUnits``).
    public var unit: QuantityUnit?
    /// The price of one ``unit``, when printed or when the line has a quantity.
    public var unitPrice: Double?
    /// What the line adds to the receipt's total: negative for a discount.
    public var total: Double

    public init(
        id: UUID,
        text: String,
        kind: ReceiptLineKind,
        name: String? = nil,
        quantity: Double? = nil,
        unit: QuantityUnit? = nil,
        unitPrice: Double? = nil,
        total: Double,
        canonicalName: String? = nil
    ) {
        self.id = id
        self.text = text
        self.kind = kind
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.unitPrice = unitPrice
        self.total = total
        self.canonicalName = canonicalName
    }
}

/// The two numbers of a receipt whose lines do not add up to its printed total.
public struct ReceiptTotalMismatch: Codable, Hashable, Sendable {
    /// The sum of the lines' totals, rounded to the cent.
    public var linesTotal: Double
    /// The total as printed.
    public var printedTotal: Double

    public init(linesTotal: Double, printedTotal: Double) {
        self.linesTotal = linesTotal
        self.printedTotal = printedTotal
    }
}
