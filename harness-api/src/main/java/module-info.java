/**
 * ServeBench's authoring API, the annotations a study is written with ({@link io.servebench.annotations}): a named
 * module, so that a study project on the module path can {@code requires io.servebench.annotations}; on the class path
 * it is the plain jar it always was.
 */
module io.servebench.annotations {
    exports io.servebench.annotations;
    // @Testable lets an IDE offer its run button on a study; neither compiling nor running a study needs JUnit
    requires static org.junit.platform.commons;
}
