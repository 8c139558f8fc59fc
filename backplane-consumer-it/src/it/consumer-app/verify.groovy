// The application's own test ran and passed against the installed artifacts.
def report = new File(basedir, 'target/surefire-reports/TEST-com.example.shop.OrdersTest.xml')
assert report.isFile() : "no test report at ${report}"
def suite = new groovy.xml.XmlSlurper().parse(report)
assert suite.@tests.toInteger() == 1 : "expected 1 test, report says ${suite.@tests}"
assert suite.@failures.toInteger() == 0 && suite.@errors.toInteger() == 0 && suite.@skipped.toInteger() == 0
