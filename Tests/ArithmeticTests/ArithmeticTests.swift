import Testing

@testable import Arithmetic
