package io.servebench.processor;

import io.servebench.study.BenchmarkList;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.NoSuchFileException;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The benchmark list ({@value BenchmarkList#RESOURCE}) a compilation writes: an entry per variant of every study it
 * compiled. Compilation may be incremental: entries of the previous list whose class is not compiled now and still
 * exists are kept; entries of recompiled or vanished classes are replaced by what this compilation found.
 */
final class ListWriter {

    private final Filer filer;
    private final Messager messager;
    private final Elements elements;
    /** Binary names of every type compiled in this compilation, nested ones included. */
    private final Set<String> compiledTypes = new HashSet<>();
    /** Entries of the studies compiled in this compilation. */
    private final SortedSet<String> found = new TreeSet<>();
    private int studiesFound;

    ListWriter(Filer filer, Messager messager, Elements elements) {
        this.filer = filer;
        this.messager = messager;
        this.elements = elements;
    }

    /** Notes a type compiled now, and the types nested in it. */
    void compiled(Element element) {
        if (element instanceof TypeElement type) {
            compiledTypes.add(elements.getBinaryName(type).toString());
            for (Element member : type.getEnclosedElements()) {
                compiled(member);
            }
        }
    }

    /** Lists a study compiled now, a line per variant. */
    void add(StudyDescriptor study) {
        studiesFound++;
        for (VariantDescriptor variant : study.variants()) {
            found.add(study.className() + "." + variant.name());
        }
    }

    /** Writes the list, in the last round. */
    void write() {
        SortedSet<String> entries = new TreeSet<>(found);
        boolean existed = keepEntriesOfOtherClasses(entries);
        if (entries.isEmpty() && !existed) {
            return;
        }
        try {
            FileObject list = filer.createResource(StandardLocation.CLASS_OUTPUT, "", BenchmarkList.RESOURCE);
            try (Writer out = list.openWriter()) {
                for (String entry : entries) {
                    out.write(entry);
                    out.write('\n');
                }
            }
        } catch (IOException e) {
            messager.printMessage(Diagnostic.Kind.ERROR, "cannot write " + BenchmarkList.RESOURCE + ": " + e);
            return;
        }
        messager.printMessage(Diagnostic.Kind.NOTE, "ServeBench: " + found.size() + " benchmark(s) in " + studiesFound
                + " study class(es) compiled now; " + entries.size() + " listed in " + BenchmarkList.RESOURCE);
    }

    /**
     * Adds the previous list's entries whose class is neither compiled now nor gone.
     *
     * @return whether a previous list existed
     */
    private boolean keepEntriesOfOtherClasses(SortedSet<String> entries) {
        try {
            FileObject previous = filer.getResource(StandardLocation.CLASS_OUTPUT, "", BenchmarkList.RESOURCE);
            try (BufferedReader in = new BufferedReader(previous.openReader(true))) {
                in.lines().map(String::strip).filter(this::stillListed).forEach(entries::add);
            }
            return true;
        } catch (FileNotFoundException | NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            messager.printMessage(Diagnostic.Kind.WARNING, "cannot read the previous " + BenchmarkList.RESOURCE
                    + " (" + e + "); it will list only the studies compiled now");
            return false;
        }
    }

    private boolean stillListed(String entry) {
        if (entry.isEmpty() || entry.indexOf('.') <= 0) {
            return false;
        }
        String className = BenchmarkList.className(entry);
        // nested classes are listed by binary name; the element lookup takes the canonical name
        return !compiledTypes.contains(className) && elements.getTypeElement(className.replace('$', '.')) != null;
    }
}
