import Testing

@testable import Emrtd
