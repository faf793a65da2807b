import KiwiModels
import KiwiStrictJSON

/// Deterministic receipt answers (`kiwi_receipt` requests) at a real receipt's size: the photos' hash picks the receipt,
/// so the same photos always get the same answer. Each adds up to its printed total, as a well-read receipt does.
enum ReceiptAnswers {
    struct Receipt {
        var storeName: String?
        var date: String?
        var time: String?
        var currency: String
        /// Printed text, kind, and for food its name, quantity, unit and unit price; then the line's total.
        var lines: [(String, ReceiptLineKind, (String, Double, QuantityUnit, Double)?, Double)]
        var total: Double
    }

    /// Which receipt a receipt's photos get.
    enum Choice: String, Codable, CaseIterable, Sendable {
        /// The one their hash picks: some photos the 30-line supermarket receipt, some the corner shop's.
        case byPhoto = "by-photo"
        /// Always the 30-line supermarket receipt: what scenario T of `make bench` times, so that its share is one size's.
        case supermarket
    }

    /// A valid model answer for photos with this SHA-256 digest.
    static func answer(forDigest digest: [UInt8], choosing choice: Choice = .byPhoto) -> JSONValue {
        json(receipts[choice == .supermarket ? 0 : Int(digest[0]) % receipts.count])
    }

    /// The answer for photos that show no receipt.
    static let notAReceipt = object([
        "isReceipt": .bool(false), "storeName": .null, "date": .null, "time": .null, "currency": .string("EUR"), "lines": .array([]),
        "total": .number(JSONNumber(0)),
    ])

    /// JSON that breaks the contract in two places: a food line without a quantity, and a discount that adds.
    static func offSchema(forDigest digest: [UInt8]) -> JSONValue {
        var receipt = receipts[Int(digest[0]) % receipts.count]
        receipt.lines[0].2?.1 = 0
        receipt.lines.append(("SAVING", .discount, nil, 0.5))
        return json(receipt)
    }

    private static func json(_ receipt: Receipt) -> JSONValue {
        func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }
        return object([
            "isReceipt": .bool(true), "storeName": receipt.storeName.map(JSONValue.string) ?? .null,
            "date": receipt.date.map(JSONValue.string) ?? .null, "time": receipt.time.map(JSONValue.string) ?? .null,
            "currency": .string(receipt.currency),
            "lines": .array(
                receipt.lines.map { text, kind, food, total in
                    object([
                        "text": .string(text), "kind": .string(kind.rawValue), "name": food.map { .string($0.0) } ?? .null,
                        "quantity": food.map { number($0.1) } ?? .null, "unit": food.map { .string($0.2.rawValue) } ?? .null,
                        "unitPrice": food.map { number($0.3) } ?? .null, "total": number(total),
                    ])
                }
            ),
            "total": number(receipt.total),
        ])
    }

    private static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(pairs))
    }

    /// A 30-line supermarket receipt (two weight-priced lines, a multi-buy discount, a deposit paid and one refunded)
    /// and a corner shop's.
    static let receipts: [Receipt] = [
        Receipt(
            storeName: "FreshMart Lindenstrasse",
            date: "2026-11-27",
            time: "18:42",
            currency: "EUR",
            lines: [
                ("BANANAS LOOSE 0.734kg @ 2.99/kg", .food, ("bananas", 0.734, .kg, 2.99), 2.19),
                ("WHOLE MILK 3.5% 1L", .food, ("whole milk", 1, .l, 1.19), 1.19),
                ("WHOLE MILK 3.5% 1L", .food, ("whole milk", 1, .l, 1.19), 1.19),
                ("FREE RANGE EGGS 10", .food, ("eggs", 10, .piece, 0.349), 3.49),
                ("GREEK YOGHURT 500G", .food, ("greek yoghurt", 500, .g, 0.00298), 1.49),
                ("GREEK YOGHURT 500G", .food, ("greek yoghurt", 500, .g, 0.00298), 1.49),
                ("MULTIBUY YOGHURT 2 FOR 2.50", .discount, nil, -0.48),
                ("CHICKEN BREAST 0.612kg @ 9.49/kg", .food, ("chicken breast", 0.612, .kg, 9.49), 5.81),
                ("CHERRY TOMATOES 250G", .food, ("cherry tomatoes", 250, .g, 0.00796), 1.99),
                ("CUCUMBER", .food, ("cucumber", 1, .piece, 0.69), 0.69),
                ("RED PEPPERS 3PK", .food, ("red peppers", 3, .piece, 0.663), 1.99),
                ("BROCCOLI", .food, ("broccoli", 1, .piece, 0.99), 0.99),
                ("CARROTS 1KG", .food, ("carrots", 1, .kg, 0.89), 0.89),
                ("BROWN ONIONS 1KG", .food, ("onions", 1, .kg, 1.09), 1.09),
                ("GARLIC 3 BULBS", .food, ("garlic", 3, .piece, 0.33), 0.99),
                ("BASMATI RICE 1KG", .food, ("basmati rice", 1, .kg, 2.29), 2.29),
                ("SPAGHETTI 500G", .food, ("spaghetti", 500, .g, 0.00178), 0.89),
                ("CHOPPED TOMATOES 400G", .food, ("chopped tomatoes", 1, .can, 0.59), 0.59),
                ("CHOPPED TOMATOES 400G", .food, ("chopped tomatoes", 1, .can, 0.59), 0.59),
                ("MATURE CHEDDAR 400G", .food, ("cheddar", 400, .g, 0.008225), 3.29),
                ("BUTTER UNSALTED 250G", .food, ("butter", 250, .g, 0.00876), 2.19),
                ("SOURDOUGH LOAF", .food, ("sourdough bread", 1, .piece, 2.49), 2.49),
                ("APPLES PINK LADY 6PK", .food, ("apples", 6, .piece, 0.465), 2.79),
                ("SPARKLING WATER 6x1.5L", .food, ("sparkling water", 9, .l, 0.3267), 2.94),
                ("DEPOSIT 6 x 0.25", .deposit, nil, 1.50),
                ("OLIVE OIL EXTRA VIRGIN 500ML", .food, ("olive oil", 500, .ml, 0.01098), 5.49),
                ("CARRIER BAG", .other, nil, 0.20),
                ("WASHING UP LIQUID", .other, nil, 1.29),
                ("FRESH BASIL", .food, ("basil", 1, .bunch, 1.29), 1.29),
                ("BOTTLE RETURN 4 x 0.25", .deposit, nil, -1.00),
            ],
            total: 51.83
        ),
        Receipt(
            storeName: "Corner Shop",
            date: "2026-11-28",
            time: "08:05",
            currency: "GBP",
            lines: [
                ("SEMI SKIMMED MILK 2PT", .food, ("semi-skimmed milk", 1.136, .l, 1.39), 1.58),
                ("WHITE BLOOMER", .food, ("white bread", 1, .piece, 1.45), 1.45),
                ("LOOSE TOMATOES 0.412kg @ 2.20/kg", .food, ("tomatoes", 0.412, .kg, 2.20), 0.91),
                ("FREE RANGE EGGS 6", .food, ("eggs", 6, .piece, 0.375), 2.25),
                ("NEWSPAPER", .other, nil, 2.50),
            ],
            total: 8.69
        ),
    ]
}
