package io.appbackplane.test.slice;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the slice tests of this package find (as a user's tests find theirs). */
@SpringBootApplication
class SliceApplication {}
