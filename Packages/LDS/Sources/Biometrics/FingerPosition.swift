/// Which finger (or fingers) an image shows: the finger position codes of ISO/IEC 19794-4:2005
/// (Table 5: 0 unknown, 1–10 the fingers from the right thumb to the left little finger, 13–15
/// the plain four-finger and two-thumb slaps) and the multi-finger codes 40–50 that ISO/IEC
/// 19794-4:2011 and 39794-4 add. Both standards share these codes; their palm codes differ, so
/// palms are left as the record's number (`FingerImageInfo.positionCode`).
public enum FingerPosition: Int, Sendable, CaseIterable {
    case unknownFinger = 0
    case rightThumb = 1
    case rightIndexFinger = 2
    case rightMiddleFinger = 3
    case rightRingFinger = 4
    case rightLittleFinger = 5
    case leftThumb = 6
    case leftIndexFinger = 7
    case leftMiddleFinger = 8
    case leftRingFinger = 9
    case leftLittleFinger = 10
    case plainRightFourFingers = 13
    case plainLeftFourFingers = 14
    case plainThumbs = 15
    case rightIndexAndMiddle = 40
    case rightMiddleAndRing = 41
    case rightRingAndLittle = 42
    case leftIndexAndMiddle = 43
    case leftMiddleAndRing = 44
    case leftRingAndLittle = 45
    case rightIndexAndLeftIndex = 46
    case rightIndexMiddleAndRing = 47
    case rightMiddleRingAndLittle = 48
    case leftIndexMiddleAndRing = 49
    case leftMiddleRingAndLittle = 50

    /// The case's name, as JSON shows it (`rightIndexFinger`).
    public var name: String { String(describing: self) }
}
