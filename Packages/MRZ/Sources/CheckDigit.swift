/// ICAO 9303-3 §4.9: weights 7, 3, 1 repeating over the character values
/// (`0`–`9` → 0–9, `A`–`Z` → 10–35, `<` → 0), the sum modulo 10.
///
/// Only called on text that passed the MRZ character check, so every byte has a value.
func mrzCheckDigit<Text: Sequence<UInt8>>(of text: Text) -> UInt8 {
    let weights: [Int] = [7, 3, 1]
    var sum = 0
    for (index, character) in text.enumerated() {
        sum += mrzCharacterValue(character) * weights[index % 3]
    }
    return UInt8(sum % 10)
}

private func mrzCharacterValue(_ character: UInt8) -> Int {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(character - UInt8(ascii: "0"))
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - UInt8(ascii: "A")) + 10
    default: 0
    }
}

/// The characters an MRZ may hold (ICAO 9303-3 §4.3): upper-case Latin letters, digits and the filler.
func isMRZCharacter(_ character: UInt8) -> Bool {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), mrzFiller: true
    default: false
    }
}

/// The filler character `<`.
let mrzFiller = UInt8(ascii: "<")
