// The enforcer's rules pass on a tree without Jackson too, as when the BOM could not be imported
// and Baton's POM lost its dependencies: check that they are there, each at one version.
def listed = new File(basedir, 'target/dependencies.txt').text
def jackson = (listed =~ /(tools\.jackson[\w.]*):([\w.-]+):jar:([^:\s]+)/).collect { it[0] }
assert jackson.any { it.startsWith('tools.jackson.core:jackson-databind:') } : listed
assert jackson.any { it.startsWith('tools.jackson.dataformat:jackson-dataformat-yaml:') } : listed
def versions = jackson.collect { it.substring(it.lastIndexOf(':') + 1) }.unique()
assert versions.size() == 1 : "tools.jackson artifacts at several versions: ${jackson}"
