// SPDX-License-Identifier: Apache-2.0

using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Cicero.Architecture.Tests;

/// <summary>
/// Reads which namespaces of an assembly use which, from its IL: base types, interfaces, fields, properties, events,
/// method signatures, attributes, generic arguments and constraints, and every type, method and field a method body
/// touches. Reflection sees only signatures; a cycle through a method body is a cycle all the same.
/// </summary>
public static class NamespaceDependencies
{
    /// <summary>Builds the namespace graph of the types in <paramref name="assemblyPath"/> whose namespace starts with <paramref name="prefix"/>.</summary>
    /// <param name="assemblyPath">The built assembly.</param>
    /// <param name="prefix">Only the assembly's own namespaces equal to this or below it are nodes (e.g. <c>Cicero.Core</c>); empty for all of them.</param>
    public static DependencyGraph Read(string assemblyPath, string prefix)
    {
        using var module = ModuleDefinition.ReadModule(assemblyPath);
        var graph = new DependencyGraph();
        var own = module.GetTypes().Select(NamespaceOf).Where(ns => Within(ns, prefix)).ToHashSet(StringComparer.Ordinal);
        foreach (var type in module.GetTypes())
        {
            var from = NamespaceOf(type);
            if (!own.Contains(from))
            {
                continue;
            }

            graph.AddNode(from);
            // Only types of this module count: Cicero.Grpc puts extension classes in Polly's and ASP.NET Core's
            // namespaces, and a reference to Polly's own types is no edge to that extension class.
            foreach (var used in Uses(type).Where(u => Outermost(u) is TypeDefinition || Outermost(u).Scope is ModuleDefinition))
            {
                var to = NamespaceOf(used);
                if (own.Contains(to) && to != from)
                {
                    graph.AddEdge(from, to, $"{Outermost(type).FullName} uses {used.FullName}");
                }
            }
        }

        return graph;
    }

    private static bool Within(string ns, string prefix) =>
        ns.Length > 0 && (prefix.Length == 0 || ns == prefix || ns.StartsWith(prefix + ".", StringComparison.Ordinal));

    private static TypeReference Outermost(TypeReference type)
    {
        while (type.DeclaringType is not null)
        {
            type = type.DeclaringType;
        }

        return type;
    }

    // Nested types (closures, state machines, private helpers) belong to the namespace of their outermost type.
    private static string NamespaceOf(TypeReference type) => Outermost(ElementOf(type)).Namespace;

    private static TypeReference ElementOf(TypeReference type)
    {
        while (type is TypeSpecification spec)
        {
            type = spec.ElementType;
        }

        return type;
    }

    private static List<TypeReference> Uses(TypeDefinition type)
    {
        var found = new List<TypeReference>();
        void Add(TypeReference? reference)
        {
            if (reference is null || reference is GenericParameter)
            {
                return;
            }

            found.Add(ElementOf(reference));
            if (reference is GenericInstanceType generic)
            {
                foreach (var argument in generic.GenericArguments)
                {
                    Add(argument);
                }
            }
            else if (reference is TypeSpecification spec)
            {
                Add(spec.ElementType);
            }
        }

        void AddAttributes(ICustomAttributeProvider provider)
        {
            foreach (var attribute in provider.CustomAttributes)
            {
                Add(attribute.AttributeType);
                foreach (var argument in attribute.ConstructorArguments)
                {
                    Add(argument.Value as TypeReference);
                }
            }
        }

        void AddMethod(MethodReference method)
        {
            Add(method.DeclaringType);
            Add(method.ReturnType);
            foreach (var parameter in method.Parameters)
            {
                Add(parameter.ParameterType);
            }

            if (method is GenericInstanceMethod generic)
            {
                foreach (var argument in generic.GenericArguments)
                {
                    Add(argument);
                }
            }
        }

        Add(type.BaseType);
        AddAttributes(type);
        foreach (var parameter in type.GenericParameters)
        {
            foreach (var constraint in parameter.Constraints)
            {
                Add(constraint.ConstraintType);
            }
        }

        foreach (var implemented in type.Interfaces)
        {
            Add(implemented.InterfaceType);
        }

        foreach (var field in type.Fields)
        {
            Add(field.FieldType);
            AddAttributes(field);
        }

        foreach (var property in type.Properties)
        {
            Add(property.PropertyType);
            AddAttributes(property);
        }

        foreach (var @event in type.Events)
        {
            Add(@event.EventType);
        }

        foreach (var method in type.Methods)
        {
            AddMethod(method);
            AddAttributes(method);
            if (!method.HasBody)
            {
                continue;
            }

            foreach (var variable in method.Body.Variables)
            {
                Add(variable.VariableType);
            }

            foreach (var instruction in method.Body.Instructions)
            {
                switch (instruction.Operand)
                {
                    case TypeReference operand:
                        Add(operand);
                        break;
                    case MethodReference operand:
                        AddMethod(operand);
                        break;
                    case FieldReference operand:
                        Add(operand.DeclaringType);
                        Add(operand.FieldType);
                        break;
                    case Instruction or Instruction[] or VariableDefinition or ParameterDefinition or string or null:
                        break;
                }
            }
        }

        return found;
    }
}
